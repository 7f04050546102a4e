import type { Sql } from './sql/params.js';
import { ReportEngine } from './runner.js';
import type { Period } from './plan.js';

/** The events of a project's period, read from the day rollup (a row a day, whatever the traffic). */
function compilePeriodEvents(projectId: number, period: Period): Sql {
  return {
    query: 'SELECT sum(events) AS events FROM rollup_day WHERE project_id = {project:UInt32} AND event_date BETWEEN {dateStart:Date} AND {dateEnd:Date}',
    params: { project: projectId, dateStart: period.dateStart, dateEnd: period.dateEnd },
    table: 'rollup_day',
  };
}

/**
 * A sample is a way to read a large period fast, never a reason to show a site of 3 visits as
 * 10 (at 0.1 the visitors read are counted ten times, so a small site's figures move in steps
 * of ten). A period of the project that holds at most `reportSampleMinEvents` events, all its
 * hits counted, is read whole whatever sample was asked, and the answer says 1; a larger one
 * reads the sample asked. Every call of one period decides alike (the table, the graph, the
 * conversions), since only the project and the period decide. 0 turns the rule off.
 */
export class Sampling {
  /**
   * The events of a project's period, by `project|start|end`, with when: kept a minute so that a
   * big site's sampled calls do not each wait for the count first. A period's events only
   * grow, so a period found large stays large; one found small may grow past the floor today and
   * is read whole a minute longer, which costs time, never truth.
   */
  private readonly known = new Map<string, { events: number; at: number }>();

  constructor(
    private readonly engine: ReportEngine,
    /** `reportSampleMinEvents` of the api's settings */
    private readonly minEvents: number,
    private readonly now: () => number = Date.now,
    /** from how many events a period is large ({@link isLarge}) */
    private readonly largeEvents: number = LARGE_PERIOD_EVENTS,
  ) {}

  /** The sample to read a project's period at, given the one the request would read. */
  async sampleOf(projectId: number, period: Period, sample: number): Promise<number> {
    if (sample >= 1 || this.minEvents === 0) return sample;
    return (await this.eventsOf(projectId, period)) <= this.minEvents ? 1 : sample;
  }

  /** Whether a project's period holds so many events that its reports plan for large states (plan-types.ts, `largePeriod`). */
  async isLarge(projectId: number, period: Period): Promise<boolean> {
    return (await this.eventsOf(projectId, period)) >= this.largeEvents;
  }

  private async eventsOf(projectId: number, period: Period): Promise<number> {
    const key = `${projectId}|${period.dateStart}|${period.dateEnd}`;
    const kept = this.known.get(key);
    if (kept !== undefined && this.now() - kept.at < KEPT_MS) return kept.events;
    const [row] = await this.engine.rows(compilePeriodEvents(projectId, period), 'sampling');
    const events = Number(row?.events ?? 0);
    this.known.delete(key);
    this.known.set(key, { events, at: this.now() });
    // A Map iterates in insertion order: the first key is the oldest decision.
    if (this.known.size > KEPT_PERIODS) this.known.delete(this.known.keys().next().value as string);
    return events;
  }
}

/**
 * A period of at least this many events is large: a filtered level of its pages is found keys
 * first (sql/query-plan.ts, `splitsLargeLevel`). Measured: one query cheaper at 10 million events a
 * month, keys first at 100 million (benchmarks/RESULTS.md, 2026-11-28 "seventh"); the crossover
 * between was not measured, and either plan gives the same numbers.
 */
const LARGE_PERIOD_EVENTS = 30_000_000;

/** How long a period's size is kept, and how many periods are. */
const KEPT_MS = 60_000;
const KEPT_PERIODS = 4_096;

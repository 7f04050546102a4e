import type { Sql } from './compile.js';
import { ReportEngine } from './engine.js';
import type { Period } from './plan.js';

/** The events of a project's period, read from the day rollup (a row a day, whatever the traffic). */
export function compilePeriodEvents(projectId: number, period: Period): Sql {
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
   * Whether a project's period was found small, by `project|start|end`, with when: kept a minute so
   * that a big site's sampled calls do not each wait for the count first. A period's events only
   * grow, so a period found large stays large; one found small may grow past the floor today and
   * is read whole a minute longer, which costs time, never truth.
   */
  private readonly known = new Map<string, { small: boolean; at: number }>();

  constructor(
    private readonly engine: ReportEngine,
    /** `reportSampleMinEvents` of the api's settings */
    private readonly minEvents: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The sample to read a project's period at, given the one the request would read. */
  async sampleOf(projectId: number, period: Period, sample: number): Promise<number> {
    if (sample >= 1 || this.minEvents === 0) return sample;
    return (await this.isSmall(projectId, period)) ? 1 : sample;
  }

  private async isSmall(projectId: number, period: Period): Promise<boolean> {
    const key = `${projectId}|${period.dateStart}|${period.dateEnd}`;
    const kept = this.known.get(key);
    if (kept !== undefined && this.now() - kept.at < KEPT_MS) return kept.small;
    const [row] = await this.engine.rows(compilePeriodEvents(projectId, period), 'sampling');
    const small = Number(row?.events ?? 0) <= this.minEvents;
    this.known.delete(key);
    this.known.set(key, { small, at: this.now() });
    // A Map iterates in insertion order: the first key is the oldest decision.
    if (this.known.size > KEPT_PERIODS) this.known.delete(this.known.keys().next().value as string);
    return small;
  }
}

/** How long a period's size is kept, and how many periods are. */
const KEPT_MS = 60_000;
const KEPT_PERIODS = 4_096;

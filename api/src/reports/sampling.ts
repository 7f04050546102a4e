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
  constructor(
    private readonly engine: ReportEngine,
    /** `reportSampleMinEvents` of the api's settings */
    private readonly minEvents: number,
  ) {}

  /** The sample to read a project's period at, given the one the request would read. */
  async sampleOf(projectId: number, period: Period, sample: number): Promise<number> {
    const floor = this.minEvents;
    if (sample >= 1 || floor === 0) return sample;
    const [row] = await this.engine.rows(compilePeriodEvents(projectId, period), 'sampling');
    return Number(row?.events ?? 0) <= floor ? 1 : sample;
  }
}

import type { ClickHouseClient } from '@stat/storage';

/**
 * How the rows of a table a materialized view writes are sliced for a rebuild: by the Moscow day
 * of their time bucket, by their day, by their week (Monday), by the Moscow day their visit
 * started; or not at all for a table whose every column is a max (writing a block twice changes
 * nothing there, so it is only written again).
 */
export type SliceKind = 'bucket-day' | 'day' | 'week' | 'visit-start' | 'idempotent';

/**
 * Every table the views of events write, and how it is sliced. A view added later must be named
 * here (the test beside this file fails until it is): a table missing from the list would stay
 * as a crash left it.
 */
export const VIEW_TABLES: Readonly<Record<string, SliceKind>> = {
  ingest_offsets: 'idempotent',
  visitor_visits: 'idempotent',
  visits: 'visit-start',
  rollup_5m: 'bucket-day',
  rollup_hour: 'bucket-day',
  rollup_day: 'day',
  rollup_sources_day: 'day',
  rollup_geo_day: 'day',
  rollup_pages_day: 'day',
  rollup_sources_week: 'week',
  rollup_geo_week: 'week',
  rollup_pages_week: 'week',
};

/** A materialized view as ClickHouse describes it: what it reads, what it writes, its SELECT. */
export interface ViewDefinition {
  name: string;
  source: string;
  target: string;
  select: string;
  /** the SELECT's columns in order: an INSERT … SELECT maps by position, the view by name */
  columns: string[];
}

/** What a set of inserts touched: their projects, the days of their events, the days their visits started. */
export interface Slice {
  projects: number[];
  days: string[];
  visitStarts: string[];
}

const SLICE_OF_TARGET: Record<Exclude<SliceKind, 'idempotent'>, string> = {
  'bucket-day': "toDate(bucket, 'Europe/Moscow') IN {days:Array(Date)}",
  day: 'event_date IN {days:Array(Date)}',
  week: 'event_date IN {weeks:Array(Date)}',
  'visit-start': 'start_date IN {visitStarts:Array(Date)}',
};

/** The events a slice's rows of a table are made of, as a condition on events. */
const SLICE_OF_EVENTS: Record<Exclude<SliceKind, 'idempotent' | 'week'>, string> = {
  'bucket-day': 'event_date IN {days:Array(Date)}',
  day: 'event_date IN {days:Array(Date)}',
  // A visit's events may run into the next day; the range only prunes, the start decides.
  'visit-start': "event_date BETWEEN {firstStart:Date} AND {lastStart:Date} + 1 AND toDate(session_start, 'Europe/Moscow') IN {visitStarts:Array(Date)}",
};

/**
 * Makes every table the views of events write agree with the events again over a slice: what a
 * crash in the middle of an insert into events may have left half done (its events stored, some
 * views' parts written and some not; ClickHouse writes each table's part apart). For each table:
 * its rows of the slice deleted and made again from the events by the view's own SELECT; a week
 * table, which its day table's view writes, from the day table afterwards, for the whole weeks.
 * Exact whatever the crash left, and idempotent (a crash during the rebuild is repaired by the
 * next). Assumes nothing else writes the slice meanwhile: true of the aggregator, which rebuilds
 * before it writes its next batch; several aggregators writing one project are not covered yet.
 */
export class SliceRebuilder {
  private views: Promise<ViewDefinition[]> | null = null;

  constructor(
    private readonly clickhouse: ClickHouseClient,
    private readonly signal: () => AbortSignal | undefined = () => undefined,
  ) {}

  /** The slice of the events stored under these insert tokens. */
  async sliceOf(tokens: readonly string[]): Promise<Slice> {
    const result = await this.clickhouse.query({
      query: `SELECT groupUniqArray(project_id) AS projects, groupUniqArray(toString(event_date)) AS days,
                     groupUniqArray(toString(toDate(session_start, 'Europe/Moscow'))) AS visitStarts
              FROM events WHERE insert_token IN {tokens:Array(String)}`,
      query_params: { tokens: [...tokens] },
      format: 'JSONEachRow',
      abort_signal: this.signal(),
    });
    const [row] = await result.json<{ projects: number[]; days: string[]; visitStarts: string[] }>();
    return { projects: row?.projects ?? [], days: [...(row?.days ?? [])].sort(), visitStarts: [...(row?.visitStarts ?? [])].sort() };
  }

  /** Rebuilds the slice of these inserts in every table the views of events write. */
  async rebuild(tokens: readonly string[]): Promise<void> {
    if (tokens.length === 0) return;
    const slice = await this.sliceOf(tokens);
    if (slice.projects.length === 0) return;
    const views = await this.definitions();
    const params = {
      tokens: [...tokens],
      projects: slice.projects,
      days: slice.days,
      weeks: [...new Set(slice.days.map(mondayOf))].sort(),
      visitStarts: slice.visitStarts,
      firstStart: slice.visitStarts[0] ?? slice.days[0]!,
      lastStart: slice.visitStarts.at(-1) ?? slice.days.at(-1)!,
    };
    // The views of events first; each day table's insert feeds its week table, rebuilt after.
    for (const view of views.filter((v) => v.source === 'events')) await this.rebuildFromEvents(view, params);
    for (const view of views.filter((v) => v.source !== 'events')) await this.rebuildFromTable(view, params);
  }

  private async rebuildFromEvents(view: ViewDefinition, params: Record<string, unknown>): Promise<void> {
    const kind = kindOf(view.target);
    if (kind === 'week') throw new Error(`${view.target} is sliced by week but written from events`);
    if (kind === 'idempotent') {
      await this.insertFrom(view, 'SELECT * FROM {db}.events WHERE insert_token IN {tokens:Array(String)}', params);
      return;
    }
    await this.deleteSlice(view.target, SLICE_OF_TARGET[kind], params);
    await this.insertFrom(view, `SELECT * FROM {db}.events WHERE project_id IN {projects:Array(UInt32)} AND ${SLICE_OF_EVENTS[kind]}`, params);
  }

  private async rebuildFromTable(view: ViewDefinition, params: Record<string, unknown>): Promise<void> {
    if (kindOf(view.target) !== 'week') throw new Error(`${view.target} is written from ${view.source}: only week tables are`);
    await this.deleteSlice(view.target, SLICE_OF_TARGET.week, params);
    await this.insertFrom(view, `SELECT * FROM {db}.${view.source} WHERE project_id IN {projects:Array(UInt32)} AND toMonday(event_date) IN {weeks:Array(Date)}`, params);
  }

  private async deleteSlice(table: string, condition: string, params: Record<string, unknown>): Promise<void> {
    await this.clickhouse.command({
      query: `DELETE FROM ${table} WHERE project_id IN {projects:Array(UInt32)} AND ${condition}`,
      query_params: params,
      clickhouse_settings: { lightweight_deletes_sync: '2' },
      abort_signal: this.signal(),
    });
  }

  /** Runs the view's SELECT over `rows` (a subquery of its source) into its table. */
  private async insertFrom(view: ViewDefinition, rows: string, params: Record<string, unknown>): Promise<void> {
    const from = new RegExp(`\\bFROM\\s+(\\w+)\\.${view.source}\\b`);
    const match = from.exec(view.select);
    if (!match) throw new Error(`the view ${view.name} does not read FROM <database>.${view.source}`);
    const select = view.select.replace(from, `FROM (${rows.replaceAll('{db}', match[1]!)})`);
    await this.clickhouse.command({
      query: `INSERT INTO ${view.target} (${view.columns.map((c) => `\`${c}\``).join(', ')}) ${select}`,
      query_params: params,
      abort_signal: this.signal(),
    });
  }

  /** The views of this database, read once. */
  private definitions(): Promise<ViewDefinition[]> {
    this.views ??= this.readDefinitions().catch((error: unknown) => {
      this.views = null;
      throw error;
    });
    return this.views;
  }

  private async readDefinitions(): Promise<ViewDefinition[]> {
    const result = await this.clickhouse.query({
      query: "SELECT name, as_select, create_table_query FROM system.tables WHERE database = currentDatabase() AND engine = 'MaterializedView' ORDER BY name",
      format: 'JSONEachRow',
      abort_signal: this.signal(),
    });
    const views: ViewDefinition[] = [];
    for (const row of await result.json<{ name: string; as_select: string; create_table_query: string }>()) {
      const target = /\bTO\s+(?:\w+\.)?(\w+)/.exec(row.create_table_query)?.[1];
      const source = /\bFROM\s+(?:\w+\.)?(\w+)/.exec(row.as_select)?.[1];
      if (!target || !source) throw new Error(`cannot read the view ${row.name}: ${row.create_table_query}`);
      const described = await this.clickhouse.query({ query: `DESCRIBE (${row.as_select})`, format: 'JSONEachRow', abort_signal: this.signal() });
      const columns = (await described.json<{ name: string }>()).map((c) => c.name);
      views.push({ name: row.name, source, target, select: row.as_select, columns });
    }
    return views;
  }
}

function kindOf(table: string): SliceKind {
  const kind = VIEW_TABLES[table];
  if (kind === undefined) throw new Error(`the view table ${table} has no slice in VIEW_TABLES: it cannot be rebuilt after a crash`);
  return kind;
}

/** The Monday of a day (YYYY-MM-DD), the weeks' key. */
export function mondayOf(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - ((date.getUTCDay() + 6) % 7));
  return date.toISOString().slice(0, 10);
}

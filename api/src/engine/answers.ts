import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import {
  drilldownHeader,
  EMPTY_TITLE,
  hasRowsBelow,
  METRIC_INFO,
  moscowDate,
  reportDefinition,
  SYSTEM_DIMENSIONS,
  VALUE_TITLES,
  type Dimension,
  type GraphLine,
  type GraphPoint,
  type GraphResult,
  type MetricValues,
  type ReportDefinition,
  type TableResult,
} from '@stat/schemas';
import { formatBucket } from '@stat/schemas/period';
import { bucketStartOf, bucketStarts, moscowDateTime } from '@stat/schemas/buckets';
import { compileSeries, compileTable, compileTotals, type LinePath } from './sql/statements.js';
import { isNumericDimension } from './sql/dimensions.js';
import { metricAlias } from './sql/metrics.js';
import { readsBySize, totalsRollUp, TOTALS_MARK, type TableQuery } from './sql/query-plan.js';
import type { Plan } from './plan-types.js';
import type { Sql } from './sql/params.js';
import { ReportEngine, type ResultRow } from './runner.js';
import { DEFAULT_LINES, planReport, type ReportPlan, type ReportWindow } from './plan.js';
import type { ReportCsvRequest, ReportRequest } from './request.js';
import { DictionaryRepository } from './dictionaries.js';
import { Sampling } from './sampling.js';
import { BOM, csvDisposition, csvLine, csvMetricTitle } from './csv.js';
import { CLOCK, type Clock } from '../tokens.js';


const values = (row: ResultRow | undefined, count: number): MetricValues =>
  Array.from({ length: count }, (_, i) => Number(row?.[metricAlias(i)] ?? 0));

/** Russian alphabetical order, as a reader expects a column of names sorted. */
const RUSSIAN = new Intl.Collator('ru');

/**
 * Dimensions whose rows read by a title from a catalogue or a dictionary (a traffic type's or a
 * device type's name, a place's, a traffic system's) instead of their stored value: a sort by the
 * name column sorts them by the names shown ({@link ReportAnswers.byTitle}). Others sort in SQL by
 * their value, which is what they show (addresses, phrases, versions), or is their order (days,
 * ranges of visit time).
 */
const TITLED_BY_NAME: ReadonlySet<Dimension> = new Set<Dimension>(['traffic_type', 'device_type', 'geo_country', 'geo_area', 'geo_city', ...SYSTEM_DIMENSIONS]);

/** Whether a dimension's rows show a title other than their stored value (a name, a range): what a search of its values must match. */
export const showsTitle = (d: Dimension): boolean => TITLED_BY_NAME.has(d) || d === 'visit_time';

const VISIT_TIME_TITLES: Readonly<Record<number, string>> = {
  0: 'Менее 15 секунд',
  15: '15–30 секунд',
  30: '30–60 секунд',
  60: '1–3 минуты',
  180: '3–10 минут',
  600: '10–30 минут',
  1800: 'Более 30 минут',
};

@Injectable()
export class ReportAnswers {
  constructor(
    @Inject(ReportEngine) private readonly engine: ReportEngine,
    @Inject(DictionaryRepository) private readonly dictionaries: DictionaryRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(Sampling) private readonly sampling: Sampling,
  ) {}

  async table(projectId: number, reportName: string, body: ReportRequest, window: ReportWindow = {}): Promise<TableResult> {
    return this.tableOf(projectId, this.definition(reportName), body, window);
  }

  /** The table of any definition: a base report's, or one made at request time (the constructor). */
  async tableOf(projectId: number, definition: ReportDefinition, asked: ReportRequest, window: ReportWindow = {}): Promise<TableResult> {
    const { body, planned } = await this.withSample(projectId, definition, asked, 'table', window);
    const { whole } = planned;
    const { plan, sort } = planned;
    const head = { metrics: [...plan.metrics], all_metrics: [...definition.metrics], sort };
    const read = whole === undefined ? { sample: plan.sample } : { sample: plan.sample, whole };
    if (definition.notCollected !== undefined) {
      return { ...head, data: [], totals: values(undefined, plan.metrics.length), meta: { total: 0, offset: planned.offset, ...read, not_collected: definition.notCollected } };
    }
    if (plan.path.length === 0) {
      const table = await this.timeTable(planned, body);
      return { ...head, ...table, meta: { ...table.meta, ...read } };
    }
    const { rows, totals } = await this.rowsAndTotals(plan, { sortBy: sort.name === 'date' ? 'title' : sort.name, order: sort.order, limit: planned.limit, offset: planned.offset });
    const level = plan.parents.length;
    const dimension = plan.path[level]!;
    const titles = await this.titles(dimension, rows.map((r) => normalValue(r.value, dimension)));
    return {
      ...head,
      data: rows.map((row) => {
        const value = normalValue(row.value, dimension);
        const title = titles.get(String(value)) ?? EMPTY_TITLE;
        return {
          id: JSON.stringify([...plan.parents, value]),
          parent_id: level === 0 ? null : JSON.stringify(plan.parents),
          level,
          can_be_expanded: hasRowsBelow(dimension, value, definition.drilldown[level + 1]),
          title,
          extra: { title, value },
          metrics: values(row, plan.metrics.length),
        };
      }),
      totals: values(totals, plan.metrics.length),
      meta: { total: Number(rows[0]?.total_rows ?? totals?.total_rows ?? (planned.offset > 0 || planned.limit === 0 ? await this.countRows(planned) : 0)), offset: planned.offset, ...read },
    };
  }

  async graph(projectId: number, reportName: string, body: ReportRequest, window: ReportWindow = {}): Promise<GraphResult> {
    return this.graphOf(projectId, this.definition(reportName), body, DEFAULT_LINES, window);
  }

  /**
   * The graph of any definition. Without selected lines it draws the top `lineCount` rows of the
   * first level by the request's sort (§9: default lines 5; the constructor's 10).
   */
  async graphOf(projectId: number, definition: ReportDefinition, asked: ReportRequest, lineCount = DEFAULT_LINES, window: ReportWindow = {}): Promise<GraphResult> {
    const { body, planned } = await this.withSample(projectId, definition, asked, 'graph', window);
    const { whole } = planned;
    const { plan } = planned;
    const starts = this.bucketsUpToNow(planned);
    const head = { metrics: [...plan.metrics], sample: plan.sample, ...(whole === undefined ? {} : { whole }) };
    if (definition.notCollected !== undefined) return { ...head, data: [], totals: values(undefined, plan.metrics.length) };
    if (plan.path.length === 0) {
      const [series, totals] = await Promise.all([this.run(() => compileSeries(plan, planned.group)), this.run(() => compileTotals(plan))]);
      const points = fill(starts, series, plan.metrics.length);
      return { ...head, data: [{ id: 'total', title: 'Итого', points }], totals: values(totals[0], plan.metrics.length) };
    }
    // Every query starts at once. Without selected lines, the totals and the default lines both
    // come from the first page of the table, read with the query the page's table sends: a table
    // and a graph asked together read their rows and totals once (ReportEngine.rows).
    // Every query is built inside its own promise (`run` takes the builder), so a compiler's refusal
    // (a 400) rejects that promise and Promise.all answers it: nothing thrown while the others are
    // started leaves one unhandled, which would stop the process.
    const first = body.selected_lines === undefined ? this.firstPage(projectId, definition, body, planned, lineCount, window) : undefined;
    const [totals, totalLine, [lines, lineRows]] = await Promise.all([
      first === undefined ? this.run(() => compileTotals(plan)).then((rows) => rows[0]) : first.then((page) => page.totals),
      body.need_all_total ? this.run(() => compileSeries(plan, planned.group)) : Promise.resolve(null),
      this.linesOf(planned, body, async () => {
        const page = await first!;
        return page.rows.slice(0, lineCount).map((r) => [normalValue(r.value, page.plan.path[0]!)]);
      }),
    ]);
    const data: GraphLine[] = [];
    if (totalLine !== null) data.push({ id: 'total', title: 'Итого', points: fill(starts, totalLine, plan.metrics.length) });
    for (const [n, path] of lines.entries()) {
      const own = lineRows.filter((r) => Number(r.line) === n + 1);
      const dimension = plan.path[path.length - 1]!;
      const value = path[path.length - 1]!;
      const title = (await this.titles(dimension, [value])).get(String(value)) ?? EMPTY_TITLE;
      data.push({ id: JSON.stringify(path), title, points: fill(starts, own, plan.metrics.length) });
    }
    return { ...head, data, totals: values(totals, plan.metrics.length) };
  }

  /**
   * The whole table as CSV (§7: the table's parameters without offset and limit, sample 1):
   * a header of the column titles, the totals, then every row of the level, written as
   * ClickHouse sends them.
   */
  async csv(projectId: number, reportName: string, body: ReportCsvRequest): Promise<{ disposition: string; lines: AsyncIterable<string> }> {
    return this.csvOf(projectId, this.definition(reportName), body);
  }

  /** The CSV of any definition, named by the title asked (else the definition's) and the period. */
  async csvOf(projectId: number, definition: ReportDefinition, body: ReportCsvRequest): Promise<{ disposition: string; lines: AsyncIterable<string> }> {
    const { title, ...request } = body;
    const planned = this.plan(projectId, definition, { ...request, sample: 1, limit: undefined, offset: undefined }, 'table');
    const { plan, sort } = planned;
    // The rows' column is titled by what its rows are: the level's dimension, named as the table's header names it.
    const header = [plan.path.length === 0 ? 'Дата' : drilldownHeader([plan.path[plan.parents.length]!]), ...plan.metrics.map((m) => csvMetricTitle(METRIC_INFO[m]))];
    const disposition = csvDisposition(definition.name, title || definition.title, planned.dateStart, planned.dateEnd);
    // The header goes out with the first data, never before it: a query that fails before its
    // first row is the call's error (streamedFile), not a file of a header alone.
    const head = BOM + csvLine(header);
    const lines = async function* (this: ReportAnswers): AsyncGenerator<string> {
      if (definition.notCollected !== undefined) {
        yield head;
        return;
      }
      if (plan.path.length === 0) {
        const table = await this.timeTable({ ...planned, offset: 0, limit: Number.MAX_SAFE_INTEGER }, body);
        const period = { start: planned.dateStart, end: planned.dateEnd };
        yield head + csvLine(['Итого', ...table.totals]) + table.data.map((row) => csvLine([formatBucket(row.title, planned.group, period), ...row.metrics])).join('');
        return;
      }
      const dimension = plan.path[plan.parents.length]!;
      const sortBy = sort.name === 'date' ? 'title' : sort.name;
      const rowLines = async (rows: readonly ResultRow[]): Promise<string> => {
        const titles = await this.titles(dimension, rows.map((r) => normalValue(r.value, dimension)));
        return rows.map((row) => csvLine([titles.get(String(normalValue(row.value, dimension))) ?? EMPTY_TITLE, ...values(row, plan.metrics.length)])).join('');
      };
      const totalsLine = (row: ResultRow | undefined): string => csvLine(['Итого', ...values(row, plan.metrics.length)]);
      if (sortBy === 'title' && TITLED_BY_NAME.has(dimension)) {
        // Sorted by the names shown, as the table is: such a level is small (byTitle), read whole.
        const { rows, totals } = await this.byTitle(plan, dimension, { sortBy, order: sort.order, offset: 0, limit: Number.MAX_SAFE_INTEGER });
        yield head + totalsLine(totals) + (await rowLines(rows));
        return;
      }
      const rolled = totalsRollUp(plan);
      const sql = compileTable(plan, { sortBy, order: sort.order, offset: 0, totals: rolled });
      const batches = this.engine.batches(sql);
      try {
        // The totals come first, once: the roll-up's row, which the query sorts to the head of the
        // first batch (a query of no rows may have none: zeros), or read apart.
        const next = await batches.next();
        const batch = next.done === true ? [] : next.value;
        const marked = rolled && batch[0] !== undefined && Number(batch[0][TOTALS_MARK]) === 1;
        const totals = rolled ? (marked ? batch[0] : undefined) : (await this.run(() => compileTotals(plan)))[0];
        yield head + totalsLine(totals) + (await rowLines(marked ? batch.slice(1) : batch));
        for await (const more of batches) yield await rowLines(more);
      } finally {
        // A download stopped before the end closes the query's stream.
        await batches.return(undefined);
      }
    };
    return { disposition, lines: lines.call(this) };
  }

  /**
   * Refuses a request the report would refuse (its metrics, period, grouping, sort, filters), as
   * its table would, without reading anything: for a caller that asks several reports at once.
   */
  check(projectId: number, reportName: string, body: ReportRequest): void {
    const definition = this.definition(reportName);
    planReport(definition, projectId, body, moscowDate(this.clock()), 'table');
  }

  private definition(reportName: string): ReportDefinition {
    const definition = reportDefinition(reportName);
    if (definition === undefined) throw new NotFoundException(`report ${reportName} not found`);
    return definition;
  }

  private plan(projectId: number, definition: ReportDefinition, body: ReportRequest, kind: 'table' | 'graph', window: ReportWindow = {}): ReportPlan {
    // The engine labels the request's queries with its name (metrics, log lines).
    this.engine.nameReport(definition.name);
    return planReport(definition, projectId, body, moscowDate(this.clock()), kind, window);
  }

  /**
   * The request with the sample its period is read at, and its plan: one that would read a sample
   * of a small period reads it whole (sampling.ts), and is planned again with that sample. Decided
   * before the queries are planned, so that every plan of the call (the graph's table page
   * included) reads the same sample; a request that reads no sample costs no query.
   */
  private async withSample(
    projectId: number,
    definition: ReportDefinition,
    asked: ReportRequest,
    kind: 'table' | 'graph',
    window: ReportWindow,
  ): Promise<{ body: ReportRequest; planned: ReportPlan }> {
    const first = this.plan(projectId, definition, asked, kind, window);
    const sample = await this.sampling.sampleOf(projectId, first, first.plan.sample);
    if (sample === first.plan.sample) return { body: asked, planned: await this.sized(projectId, first) };
    const body = { ...asked, sample };
    return { body, planned: await this.sized(projectId, { ...this.plan(projectId, definition, body, kind, window), whole: 'period' }) };
  }

  /** The plan told whether its period is large, where that chooses how a level of pages is read (plan-types.ts, `largePeriod`). */
  private async sized(projectId: number, planned: ReportPlan): Promise<ReportPlan> {
    const { plan } = planned;
    if (!readsBySize(plan)) return planned;
    return (await this.sampling.isLarge(projectId, planned)) ? { ...planned, plan: { ...plan, largePeriod: true } } : planned;
  }

  /**
   * Builds a query and runs it. It takes the builder, not the SQL: what the builder throws (a
   * compiler's 400) becomes this promise's rejection, so queries started side by side always fail
   * through the promise their caller awaits, never as a throw between them.
   */
  private async run(build: () => Sql): Promise<ResultRow[]> {
    return this.engine.rows(build());
  }

  /**
   * A page of a level's rows and the level's totals: one query when the totals are the roll-up of
   * the rows (compileTable's `totals`), else the rows and the totals side by side (the site's
   * totals, a page found keys first: `totalsRollUp`).
   */
  private async rowsAndTotals(plan: Plan, q: Omit<TableQuery, 'totals'>): Promise<{ rows: ResultRow[]; totals: ResultRow | undefined }> {
    const dimension = plan.path[plan.parents.length];
    if (q.sortBy === 'title' && q.limit !== undefined && dimension !== undefined && TITLED_BY_NAME.has(dimension)) return this.byTitle(plan, dimension, { ...q, limit: q.limit });
    if (!totalsRollUp(plan, q)) {
      const [rows, totals] = await Promise.all([this.run(() => compileTable(plan, q)), this.run(() => compileTotals(plan))]);
      return { rows, totals: totals[0] };
    }
    const rows = await this.run(() => compileTable(plan, { ...q, totals: true }));
    const first = rows[0];
    return first !== undefined && Number(first[TOTALS_MARK]) === 1 ? { rows: rows.slice(1), totals: first } : { rows, totals: undefined };
  }

  /**
   * A page of a level whose rows are titled from a catalogue or a dictionary, sorted by the titles
   * shown («Поисковые системы» before «Прямые заходы», whose codes `search` and `direct` sort the
   * other way): every row of the level, titled, sorted as Russian is, then paged. Such a level has
   * at most a few thousand rows (places of one parent, traffic systems, types), and the titles are
   * in the api, not in ClickHouse.
   */
  private async byTitle(plan: Plan, dimension: Dimension, q: Omit<TableQuery, 'totals'> & { limit: number }): Promise<{ rows: ResultRow[]; totals: ResultRow | undefined }> {
    const { rows, totals } = await this.rowsAndTotals(plan, { sortBy: 'title', order: 'asc', offset: 0 });
    const titles = await this.titles(dimension, rows.map((r) => normalValue(r.value, dimension)));
    const titled = rows.map((row) => ({ row, title: titles.get(String(normalValue(row.value, dimension))) ?? EMPTY_TITLE }));
    const direction = q.order === 'asc' ? 1 : -1;
    // Rows of one title (two places of one name) keep the order of their values.
    titled.sort((a, b) => direction * RUSSIAN.compare(a.title, b.title));
    return { rows: titled.slice(q.offset, q.offset + q.limit).map(({ row }) => ({ ...row, total_rows: rows.length })), totals };
  }

  /** The lines a graph draws (the selected rows, or by default the first rows) and their series. */
  private async linesOf(planned: ReportPlan, body: ReportRequest, firstRows: () => Promise<LinePath[]>): Promise<[LinePath[], ResultRow[]]> {
    const lines = body.selected_lines?.map((id) => JSON.parse(id) as LinePath) ?? (await firstRows());
    return [lines, lines.length > 0 ? await this.run(() => compileSeries(planned.plan, planned.group, lines)) : []];
  }

  /**
   * The first page of the report's top level and its totals, as the page's table reads them (its
   * plan from the same body, first page, its limit, at least `lineCount` rows): the rows a graph
   * draws when none are selected are the table's top rows, and a table and a graph asked together
   * share the query.
   */
  private async firstPage(
    projectId: number,
    definition: ReportDefinition,
    body: ReportRequest,
    planned: ReportPlan,
    lineCount: number,
    window: ReportWindow,
  ): Promise<{ plan: Plan; rows: ResultRow[]; totals: ResultRow | undefined }> {
    let table: ReportPlan;
    try {
      table = this.plan(projectId, definition, { ...body, parents: [], offset: 0 }, 'table', window);
    } catch {
      // A body the table refuses (the graph reads the whole path): the top level of the graph's own plan.
      table = { ...planned, plan: { ...planned.plan, path: planned.plan.path.slice(0, 1), parents: [] }, limit: lineCount };
    }
    const sortBy = table.sort.name === 'date' ? 'title' : table.sort.name;
    const { rows, totals } = await this.rowsAndTotals(table.plan, { sortBy, order: table.sort.order, limit: Math.max(table.limit, lineCount), offset: 0 });
    return { plan: table.plan, rows, totals };
  }

  /** A page past the last row, or of no rows (limit 0), has no row to carry the count: ask for it alone. */
  private async countRows(planned: ReportPlan): Promise<number> {
    const rows = await this.run(() => compileTable(planned.plan, { sortBy: 'title', order: 'asc', limit: 1, offset: 0 }));
    return Number(rows[0]?.total_rows ?? 0);
  }

  /** The rows of a report of time buckets: every bucket of the period up to now, sorted and paged. */
  private async timeTable(planned: ReportPlan, body: ReportRequest): Promise<Pick<TableResult, 'data' | 'totals' | 'meta'>> {
    const { plan, sort } = planned;
    const [series, totals] = await Promise.all([this.run(() => compileSeries(plan, planned.group)), this.run(() => compileTotals(plan))]);
    let points = fill(this.bucketsUpToNow(planned), series, plan.metrics.length);
    if (body.empty_dates === false) points = points.filter((p) => p.metrics.some((v) => v !== 0));
    const column = sort.name === 'date' || sort.name === 'title' ? -1 : plan.metrics.indexOf(sort.name);
    const key = (p: GraphPoint): number => (column < 0 ? p.ts : (p.metrics[column] ?? 0));
    const direction = sort.order === 'asc' ? 1 : -1;
    const sorted = [...points].sort((a, b) => (key(a) - key(b)) * direction || (a.ts - b.ts) * direction);
    return {
      data: sorted.slice(planned.offset, planned.offset + planned.limit).map((p) => ({
        id: p.date,
        parent_id: null,
        level: 0,
        can_be_expanded: false,
        title: p.date,
        extra: { title: p.date },
        ts: p.ts,
        metrics: p.metrics,
      })),
      totals: values(totals[0], plan.metrics.length),
      meta: { total: points.length, offset: planned.offset, sample: plan.sample },
    };
  }

  /**
   * Bucket starts of the period; the ones that have not begun yet are the future, left out, and
   * with a window, the ones that ended before it (the bucket holding its start stays).
   */
  private bucketsUpToNow(planned: ReportPlan): number[] {
    const now = this.clock() / 1000;
    const first = planned.since === undefined ? -Infinity : bucketStartOf(planned.since, planned.group, planned.dateStart);
    return bucketStarts(planned.dateStart, planned.dateEnd, planned.group).filter((ts) => ts <= now && ts >= first);
  }

  /** What users read for each value of a dimension: place names, traffic types, ranges. */
  async titles(dimension: Dimension, rowValues: readonly (string | number)[]): Promise<Map<string, string>> {
    const titles = new Map<string, string>();
    if (dimension === 'geo_country' || dimension === 'geo_area' || dimension === 'geo_city') {
      const ids = rowValues.map(Number).filter((id) => id > 0);
      for (const place of ids.length > 0 ? await this.dictionaries.geo(ids) : []) titles.set(String(place.id), place.name);
    }
    if (SYSTEM_DIMENSIONS.has(dimension)) {
      const ids = rowValues.map(String).filter((id) => id !== '');
      if (ids.length > 0) for (const [id, name] of await this.dictionaries.systems(ids)) titles.set(id, name);
    }
    for (const raw of rowValues) {
      const value = normalValue(raw, dimension);
      const key = String(value);
      if (titles.has(key)) continue;
      if (value === '' || value === 0) continue;
      const coded = dimension === 'traffic_type' || dimension === 'device_type' ? VALUE_TITLES[dimension] : undefined;
      if (coded !== undefined) titles.set(key, coded[key] ?? key);
      else if (dimension === 'visit_time') titles.set(key, VISIT_TIME_TITLES[Number(value)] ?? key);
      // A day (the constructor's `date` rows) reads as Russian dates do: 10.11.2026.
      else if (dimension === 'date' && /^\d{4}-\d{2}-\d{2}$/.test(key)) titles.set(key, key.split('-').reverse().join('.'));
      else titles.set(key, key);
    }
    // The first range of visit time starts at 0, which is a value, not "not determined".
    if (dimension === 'visit_time') titles.set('0', VISIT_TIME_TITLES[0]!);
    return titles;
  }
}

/** ClickHouse writes 64-bit numbers as strings: a row's value as the number or text its dimension holds. */
export function normalValue(value: unknown, dimension: Dimension): string | number {
  if (isNumericDimension(dimension)) return Number(value ?? 0);
  return typeof value === 'string' ? value : String(value ?? '');
}

/** Points for every bucket start, with the rows' metrics where the bucket has traffic and zeros elsewhere. */
function fill(starts: readonly number[], rows: readonly ResultRow[], count: number): GraphPoint[] {
  const byStart = new Map(rows.map((r) => [Number(r.bucket_start), r]));
  return starts.map((ts) => ({ ts, date: moscowDateTime(ts), metrics: values(byStart.get(ts), count) }));
}

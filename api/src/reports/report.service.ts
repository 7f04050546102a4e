import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import {
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
import { bucketStartOf, bucketStarts, moscowDateTime } from './buckets.js';
import { compileSeries, compileTable, compileTotals, isNumericDimension, metricAlias, type LinePath, type Plan, type Sql } from './compile.js';
import { ReportEngine, type ResultRow } from './engine.js';
import { DEFAULT_LINES, planReport, type ReportPlan, type ReportWindow } from './plan.js';
import type { ReportRequestDto } from './report-request.dto.js';
import { DictionaryRepository } from './dictionaries.js';
import { BOM, csvDisposition, csvLine } from './csv.js';
import { CLOCK, type Clock } from '../tokens.js';
import { requestContext } from '../http/operations.js';


const values = (row: ResultRow | undefined, count: number): MetricValues =>
  Array.from({ length: count }, (_, i) => Number(row?.[metricAlias(i)] ?? 0));

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
export class ReportService {
  constructor(
    @Inject(ReportEngine) private readonly engine: ReportEngine,
    @Inject(DictionaryRepository) private readonly dictionaries: DictionaryRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async table(projectId: number, reportName: string, body: ReportRequestDto, window: ReportWindow = {}): Promise<TableResult> {
    return this.tableOf(projectId, this.definition(reportName), body, window);
  }

  /** The table of any definition: a base report's, or one made at request time (the constructor). */
  async tableOf(projectId: number, definition: ReportDefinition, body: ReportRequestDto, window: ReportWindow = {}): Promise<TableResult> {
    const planned = this.plan(projectId, definition, body, 'table', window);
    const { plan, sort } = planned;
    const head = { metrics: [...plan.metrics], all_metrics: [...definition.metrics], sort };
    if (definition.notCollected !== undefined) {
      return { ...head, data: [], totals: values(undefined, plan.metrics.length), meta: { total: 0, offset: planned.offset, sample: plan.sample, not_collected: definition.notCollected } };
    }
    if (plan.path.length === 0) return { ...head, ...(await this.timeTable(planned, body)) };
    const [rows, totals] = await Promise.all([
      this.run(compileTable(plan, { sortBy: sort.name === 'date' ? 'title' : sort.name, order: sort.order, limit: planned.limit, offset: planned.offset })),
      this.run(compileTotals(plan)),
    ]);
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
      totals: values(totals[0], plan.metrics.length),
      meta: { total: Number(rows[0]?.total_rows ?? (planned.offset > 0 || planned.limit === 0 ? await this.countRows(planned) : 0)), offset: planned.offset, sample: plan.sample },
    };
  }

  async graph(projectId: number, reportName: string, body: ReportRequestDto, window: ReportWindow = {}): Promise<GraphResult> {
    return this.graphOf(projectId, this.definition(reportName), body, DEFAULT_LINES, window);
  }

  /**
   * The graph of any definition. Without selected lines it draws the top `lineCount` rows of the
   * first level by the request's sort (§9: default lines 5; the constructor's 10).
   */
  async graphOf(projectId: number, definition: ReportDefinition, body: ReportRequestDto, lineCount = DEFAULT_LINES, window: ReportWindow = {}): Promise<GraphResult> {
    const planned = this.plan(projectId, definition, body, 'graph', window);
    const { plan } = planned;
    const starts = this.bucketsUpToNow(planned);
    const head = { metrics: [...plan.metrics], sample: plan.sample };
    if (definition.notCollected !== undefined) return { ...head, data: [], totals: values(undefined, plan.metrics.length) };
    if (plan.path.length === 0) {
      const [series, totals] = await Promise.all([this.run(compileSeries(plan, planned.group)), this.run(compileTotals(plan))]);
      const points = fill(starts, series, plan.metrics.length);
      return { ...head, data: [{ id: 'total', title: 'Итого', points }], totals: values(totals[0], plan.metrics.length) };
    }
    // Every query starts at once; the totals first, so that a table of the same page asked
    // together shares them (ReportEngine.rows).
    const [totals, whole, [lines, lineRows]] = await Promise.all([
      this.run(compileTotals(plan)),
      body.need_all_total ? this.run(compileSeries(plan, planned.group)) : Promise.resolve(null),
      this.linesOf(planned, body, lineCount),
    ]);
    const data: GraphLine[] = [];
    if (whole !== null) data.push({ id: 'total', title: 'Итого', points: fill(starts, whole, plan.metrics.length) });
    for (const [n, path] of lines.entries()) {
      const own = lineRows.filter((r) => Number(r.line) === n + 1);
      const dimension = plan.path[path.length - 1]!;
      const value = path[path.length - 1]!;
      const title = (await this.titles(dimension, [value])).get(String(value)) ?? EMPTY_TITLE;
      data.push({ id: JSON.stringify(path), title, points: fill(starts, own, plan.metrics.length) });
    }
    return { ...head, data, totals: values(totals[0], plan.metrics.length) };
  }

  /**
   * The whole table as CSV (§7: the table's parameters without offset and limit, sample 1):
   * a header of the column titles, the totals, then every row of the level, written as
   * ClickHouse sends them.
   */
  async csv(projectId: number, reportName: string, body: ReportRequestDto): Promise<{ disposition: string; lines: AsyncIterable<string> }> {
    return this.csvOf(projectId, this.definition(reportName), body);
  }

  /** The CSV of any definition. */
  async csvOf(projectId: number, definition: ReportDefinition, body: ReportRequestDto): Promise<{ disposition: string; lines: AsyncIterable<string> }> {
    const planned = this.plan(projectId, definition, { ...body, sample: 1, limit: undefined, offset: undefined }, 'table');
    const { plan, sort } = planned;
    const header = [definition.drilldown.length === 0 ? 'Дата' : definition.title, ...plan.metrics.map((m) => METRIC_INFO[m].title)];
    const disposition = csvDisposition(definition.name, definition.title, planned.dateStart, planned.dateEnd);
    const totals = definition.notCollected === undefined ? values((await this.run(compileTotals(plan)))[0], plan.metrics.length) : [];
    const lines = async function* (this: ReportService): AsyncGenerator<string> {
      yield BOM + csvLine(header);
      if (definition.notCollected !== undefined) return;
      yield csvLine(['Итого', ...totals]);
      if (plan.path.length === 0) {
        const table = await this.timeTable({ ...planned, offset: 0, limit: Number.MAX_SAFE_INTEGER }, body);
        for (const row of table.data) yield csvLine([row.title, ...row.metrics]);
        return;
      }
      const dimension = plan.path[plan.parents.length]!;
      const sql = compileTable(plan, { sortBy: sort.name === 'date' ? 'title' : sort.name, order: sort.order, offset: 0 });
      for await (const batch of this.engine.batches(sql)) {
        const titles = await this.titles(dimension, batch.map((r) => normalValue(r.value, dimension)));
        yield batch.map((row) => csvLine([titles.get(String(normalValue(row.value, dimension))) ?? EMPTY_TITLE, ...values(row, plan.metrics.length)])).join('');
      }
    };
    return { disposition, lines: lines.call(this) };
  }

  private definition(reportName: string): ReportDefinition {
    const definition = reportDefinition(reportName);
    if (definition === undefined) throw new NotFoundException(`report ${reportName} not found`);
    return definition;
  }

  private plan(projectId: number, definition: ReportDefinition, body: ReportRequestDto, kind: 'table' | 'graph', window: ReportWindow = {}): ReportPlan {
    // The engine labels the request's queries with its name (metrics, log lines).
    const context = requestContext();
    if (context) context.report = definition.name;
    return planReport(definition, projectId, body, moscowDate(this.clock()), kind, window);
  }

  private async run(sql: Sql): Promise<ResultRow[]> {
    return this.engine.rows(sql);
  }

  /** The lines a graph draws (the selected rows, or by default the first rows) and their series. */
  private async linesOf(planned: ReportPlan, body: ReportRequestDto, lineCount: number): Promise<[LinePath[], ResultRow[]]> {
    const lines = body.selected_lines?.map((id) => JSON.parse(id) as LinePath) ?? (await this.defaultLines(planned, lineCount));
    return [lines, lines.length > 0 ? await this.run(compileSeries(planned.plan, planned.group, lines)) : []];
  }

  /** The rows of the report's top level that a graph draws when none are selected. */
  private async defaultLines(planned: ReportPlan, lineCount: number): Promise<LinePath[]> {
    const top: Plan = { ...planned.plan, path: planned.plan.path.slice(0, 1), parents: [] };
    const sortBy = planned.sort.name === 'date' ? 'title' : planned.sort.name;
    const rows = await this.run(compileTable(top, { sortBy, order: planned.sort.order, limit: lineCount, offset: 0 }));
    return rows.map((r) => [normalValue(r.value, top.path[0]!)]);
  }

  /** A page past the last row, or of no rows (limit 0), has no row to carry the count: ask for it alone. */
  private async countRows(planned: ReportPlan): Promise<number> {
    const rows = await this.run(compileTable(planned.plan, { sortBy: 'title', order: 'asc', limit: 1, offset: 0 }));
    return Number(rows[0]?.total_rows ?? 0);
  }

  /** The rows of a report of time buckets: every bucket of the period up to now, sorted and paged. */
  private async timeTable(planned: ReportPlan, body: ReportRequestDto): Promise<Pick<TableResult, 'data' | 'totals' | 'meta'>> {
    const { plan, sort } = planned;
    const [series, totals] = await Promise.all([this.run(compileSeries(plan, planned.group)), this.run(compileTotals(plan))]);
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

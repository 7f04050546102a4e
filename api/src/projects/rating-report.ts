import { BadRequestException, Inject, Injectable } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsOptional } from 'class-validator';
import {
  drilldownHeader,
  EMPTY_TITLE,
  METRIC_INFO,
  moscowDate,
  moscowDayStart,
  RATING_LISTED_STATUSES,
  reportDefinition,
  type GraphLine,
  type GraphResult,
  type Metric,
  type RatingMeta,
  type RowValues,
  type TableResult,
  type TableRow,
} from '@stat/schemas';
import { addDays, periodDays, ratingPeriod } from '@stat/schemas/period';
import { DEMO_PROJECT_ID } from '../auth/project-access.js';
import type { Db } from '../db/db.js';
import { IsRowId } from '../http/id.pipe.js';
import { compileProjectDays, compileProjectSpans, metricAlias, BOM, csvDisposition, csvLine, ReportEngine, datesOf, DEFAULT_LINES, metricsOf, ReportRequestError } from '../engine/index.js';
import { CsvTitle, ReportRequestDto } from '../reports/report-request.dto.js';
import { CLOCK, DB, type Clock } from '../tokens.js';

/** Statuses whose sites stand in the catalogue and in the rating report (and whose rating reports may be asked for). */
export const LISTED_STATUSES = RATING_LISTED_STATUSES;

/** §9: rows of a rating page when the request names none. */
const RATING_DEFAULT_LIMIT = 49;

/** The body of the rating report: a report request and the category (§3 `categoryId`). */
export class RatingRequestDto extends ReportRequestDto {
  /** one of the site's rating categories; missing: its first */
  @IsOptional()
  @Type(() => Number)
  @IsRowId()
  category_id?: number;
}

/** The body of the rating's CSV call: the table's, and the file's title. */
export class RatingCsvRequestDto extends RatingRequestDto {
  @CsvTitle()
  title?: string;
}

/** A site's place in a rating: more popular first, the older site (lower id) first among equals. */
export function byPopularity(a: { id: number; popularity: number }, b: { id: number; popularity: number }): number {
  return b.popularity - a.popularity || a.id - b.id;
}

/** A rating request as read: what the report shows and of which sites. */
interface Asked {
  metrics: Metric[];
  sort: { name: string; order: 'asc' | 'desc' };
  /** null: the site is in no rating category */
  category: number | null;
  sites: RatedSite[];
  period: { from: string; to: string };
  meta(position: number): RatingMeta;
}

interface RatedSite {
  id: number;
  title: string;
  public_stats: boolean;
}

/** One site's figures over a span of days: its popularity and its position among the category's sites. */
interface Placed {
  id: number;
  popularity: number;
  position: number;
}

const DEFINITION = reportDefinition('rating')!;

/**
 * «Рейтинг» (spec 001, §2, §5, §9): the rated sites of one of the site's rating categories over
 * whole days, each with its popularity (its distinct visitors over the period, read by the report
 * engine from the hour rollup, as the daily positions are) and its position in the category by
 * popularity. Graph lines are sites, a point per day with the day's popularity and position.
 * Only these two figures of other sites are shown: they are what the public catalogue shows.
 */
@Injectable()
export class RatingReport {
  constructor(
    @Inject(DB) private readonly db: Db,
    @Inject(ReportEngine) private readonly engine: ReportEngine,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async table(projectId: number, body: RatingRequestDto): Promise<TableResult> {
    return this.tableOf(projectId, await this.ask(projectId, body), body.offset ?? 0, body.limit ?? RATING_DEFAULT_LIMIT);
  }

  private async tableOf(projectId: number, asked: Asked, offset: number, limit: number): Promise<TableResult> {
    const { metrics, sort } = asked;
    const head = { metrics, all_metrics: [...DEFINITION.metrics], sort };
    if (asked.category === null) {
      return { ...head, data: [], totals: metrics.map(() => null), meta: { total: 0, offset: 0, sample: 1, not_collected: NOT_RATED, leader: null, pinned: null, common_total: 0 } };
    }
    const placed = await this.place(asked.sites, [asked.period]);
    const rows = placed[0]!;
    const site = new Map(asked.sites.map((s) => [s.id, s]));
    const sorted = [...rows].sort((a, b) => compareRows(a, b, sort, site));
    const rowOf = (row: Placed): TableRow => {
      const { title, public_stats } = site.get(row.id)!;
      const shown = public_stats || row.id === projectId;
      return { id: JSON.stringify([row.id]), parent_id: null, level: 0, can_be_expanded: false, title, extra: { title, value: row.id, public_stats }, metrics: valuesOf(row, metrics, shown) };
    };
    const data = sorted.slice(offset, offset + limit).map(rowOf);
    // No total: a person who visits two sites is one visitor of each, and closed sites' figures
    // would show through a sum.
    const totals = metrics.map(() => null);
    const own = rows.find((r) => r.id === projectId);
    const leader = rows.find((r) => r.position === 1);
    // The category's first site and the site's own row, whatever the page and the sort (§3 "meta …
    // leader, pinned"); every site of the category is a row, so the total is the category's.
    const meta = { total: rows.length, offset, sample: 1, rating: asked.meta(own?.position ?? 0), leader: leader ? rowOf(leader) : null, pinned: own ? rowOf(own) : null, common_total: rows.length };
    return { ...head, data, totals, meta };
  }

  async graph(projectId: number, body: RatingRequestDto): Promise<GraphResult> {
    const asked = await this.ask(projectId, body);
    const { metrics } = asked;
    if (asked.category === null) return { metrics, data: [], totals: metrics.map(() => null), sample: 1 };
    const days = Array.from({ length: periodDays(asked.period.from, asked.period.to) }, (_, i) => addDays(asked.period.from, i));
    // Two reads: the period's popularity (distinct visitors of the whole period) and each day's.
    const [[whole], byDay] = await Promise.all([this.place(asked.sites, [asked.period]), this.placeDays(asked.sites, asked.period, days.length)]);
    const site = new Map(asked.sites.map((s) => [s.id, s]));
    const lines = body.selected_lines?.map(lineSite) ?? [...whole!].sort((a, b) => a.position - b.position).slice(0, DEFAULT_LINES).map((r) => r.id);
    const data: GraphLine[] = [];
    const pointsOf = (values: (day: number) => RowValues) => days.map((d, i) => ({ ts: moscowDayStart(d) / 1000, date: `${d} 00:00:00`, metrics: values(i) }));
    // No line of the whole report (need_all_total): the rating has no total.
    for (const id of lines) {
      const shown = site.get(id)?.public_stats === true || id === projectId;
      const title = site.get(id)?.title ?? EMPTY_TITLE;
      data.push({ id: JSON.stringify([id]), title, points: pointsOf((i) => valuesOf(byDay[i]!.find((r) => r.id === id), metrics, shown)) });
    }
    return { metrics, data, totals: metrics.map(() => null), sample: 1 };
  }

  /** The whole table as CSV: the site, then the metrics, as the table shows them. */
  async csv(projectId: number, body: RatingCsvRequestDto): Promise<{ disposition: string; lines: AsyncGenerator<string> }> {
    const { title, ...request } = body;
    const asked = await this.ask(projectId, request);
    const table = await this.tableOf(projectId, asked, 0, Number.MAX_SAFE_INTEGER);
    async function* lines(): AsyncGenerator<string> {
      yield BOM + csvLine([drilldownHeader(DEFINITION.drilldown), ...table.metrics.map((m) => METRIC_INFO[m].title)]);
      for (const row of table.data) yield csvLine([row.extra.title, ...row.metrics]);
    }
    return { disposition: csvDisposition('rating', title || DEFINITION.title, asked.period.from, asked.period.to), lines: lines() };
  }

  /** The request read against the site's rating: its period, category, sites, metrics and sort. */
  private async ask(projectId: number, body: RatingRequestDto): Promise<Asked> {
    const today = moscowDate(this.clock());
    const asked = datesOf(body, today);
    const { dateStart, dateEnd } = ratingPeriod(asked.dateStart, asked.dateEnd, today);
    const filtered = (['filters', 'dimension_filters', 'metric_filters'] as const).find((f) => (body[f]?.length ?? 0) > 0);
    if (filtered !== undefined) throw new ReportRequestError(`${filtered}: the rating report takes no filters (its rows are sites, not the site's traffic)`);
    const metrics = metricsOf(DEFINITION, body);
    const sortName = body.sort?.name ?? DEFINITION.defaultSort.name;
    if (sortName !== 'title' && !metrics.includes(sortName as Metric)) throw new ReportRequestError(`sort.name: ${sortName} is not among the requested metrics`);
    // §4: the rating always sorts a column in its default direction.
    const sort = { name: sortName, order: sortName === 'title' ? ('asc' as const) : METRIC_INFO[sortName as Metric].order };
    const [project] = await this.db.query<{ categories: number[] }>('SELECT categories FROM projects WHERE id = $1', [projectId]);
    const categories = [...(project?.categories ?? [])].sort((a, b) => a - b);
    if (body.category_id !== undefined && !categories.includes(body.category_id)) {
      throw new BadRequestException(`category_id: the site is not rated in category ${body.category_id}${categories.length > 0 ? ` (its categories: ${categories.join(', ')})` : ''}`);
    }
    const category = body.category_id ?? categories[0] ?? null;
    // The demo project is always allowed a rating (000 §4) without being rated: its own rating ranks
    // it among its theme's rated sites, and no other site's rating holds it (its traffic is generated).
    const sites =
      category === null
        ? []
        : await this.db.query<RatedSite>(
            `SELECT id, title, public_stats FROM projects
             WHERE $1 = ANY(categories) AND (rating_status = ANY($2::text[]) OR id = $3) AND deleted_at IS NULL ORDER BY id`,
            [category, [...LISTED_STATUSES], projectId === DEMO_PROJECT_ID ? projectId : 0],
          );
    const period = { from: dateStart, to: dateEnd };
    const meta = (position: number): RatingMeta => ({ category_id: category ?? 0, categories, position, date_start: dateStart, date_end: dateEnd });
    return { metrics, sort, category, sites: sites.map((s) => ({ ...s, id: Number(s.id) })), period, meta };
  }

  /** Each span's popularity of every site (0 without traffic) and the places it gives them; the spans must not overlap. */
  private async place(sites: readonly RatedSite[], spans: readonly { from: string; to: string }[]): Promise<Placed[][]> {
    if (sites.length === 0) return spans.map(() => []);
    // Hour buckets from the first hour of `from` to the last of `to`, Moscow days.
    const hours = spans.map((s) => ({ from: moscowDayStart(s.from) / 1000, to: moscowDayStart(s.to) / 1000 + 23 * 3600 }));
    return this.ranked(sites, spans.length, await this.engine.rows(compileProjectSpans(sites.map((s) => s.id), hours, ['visitors']), 'rating'));
  }

  /** place() for each day of the period, grouped by day in one query. */
  private async placeDays(sites: readonly RatedSite[], period: { from: string; to: string }, days: number): Promise<Placed[][]> {
    if (sites.length === 0) return Array.from({ length: days }, () => []);
    return this.ranked(sites, days, await this.engine.rows(compileProjectDays(sites.map((s) => s.id), period.from, period.to, ['visitors']), 'rating'));
  }

  /** Rows of (project_id, span, visitors) as each span's sites in their places. */
  private ranked(sites: readonly RatedSite[], spans: number, rows: readonly Record<string, unknown>[]): Placed[][] {
    const counted = new Map<string, number>();
    for (const row of rows) counted.set(`${Number(row.project_id)}:${Number(row.span)}`, Number(row[metricAlias(0)]));
    return Array.from({ length: spans }, (_, span) => {
      const ranked = sites.map((s) => ({ id: s.id, popularity: counted.get(`${s.id}:${span}`) ?? 0 })).sort(byPopularity);
      return ranked.map((r, i) => ({ ...r, position: i + 1 }));
    });
  }
}

/** A site not in the rating has no rating report: the web shows its placeholder. */
const NOT_RATED = 'the site takes no part in the rating';

/**
 * A site's values as its row shows them. Its popularity is hidden (null, «NA») from the viewers of
 * another site unless its owner opened its statistics (`public_stats`), as in the public catalogue.
 */
function valuesOf(row: Placed | undefined, metrics: readonly Metric[], shown: boolean): RowValues {
  return metrics.map((m) => (m === 'popularity' ? (shown ? (row?.popularity ?? 0) : null) : m === 'position' ? (row?.position ?? 0) : 0));
}

function compareRows(a: Placed, b: Placed, sort: { name: string; order: 'asc' | 'desc' }, site: ReadonlyMap<number, RatedSite>): number {
  const sign = sort.order === 'asc' ? 1 : -1;
  if (sort.name === 'title') return sign * site.get(a.id)!.title.localeCompare(site.get(b.id)!.title, 'ru') || a.position - b.position;
  const key = sort.name as 'popularity' | 'position';
  return sign * (a[key] - b[key]) || a.position - b.position;
}

/** A graph line's site: the id of a table row, `[siteId]`. */
function lineSite(id: string): number {
  const path = JSON.parse(id) as unknown;
  if (!Array.isArray(path) || path.length !== 1 || !Number.isInteger(path[0])) throw new ReportRequestError(`selected_lines: ${id} is not a site of the rating`);
  return path[0] as number;
}

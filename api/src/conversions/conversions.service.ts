import { BadRequestException, ForbiddenException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import {
  CONVERSION_DIMENSION_TITLES,
  CONVERSION_METRIC_TITLES,
  CONVERSION_TABLE_DIMENSIONS,
  CONVERSION_TABLE_METRICS,
  CONVERSION_TEXTS,
  CONVERSION_TOTAL_TITLE,
  CONVERSION_WIDGET_INFO,
  CONVERSION_WIDGET_LINES,
  CONVERSION_WIDGETS,
  conversionValue,
  DIMENSIONS,
  EMPTY_TITLE,
  moscowDate,
  type AttributionModel,
  type AttributionWindow,
  type Conversion,
  type ConversionAccess,
  type ConversionFigures,
  type ConversionList,
  type ConversionMetric,
  type ConversionsReport,
  type ConversionTable,
  type ConversionTableDimension,
  type ConversionTableMetric,
  type ConversionTableRow,
  type ConversionWidgetCategory,
  type ConversionWidgetDimension,
  type ConversionWidgetResult,
  type DimensionFilterRule,
  type GoalBody,
} from '@stat/schemas';
import { FORBIDDEN } from '../auth/access.guard.js';
import type { Principal } from '../auth/principal.js';
import { ProjectAccess } from '../auth/project-access.js';
import type { Db } from '../db/db.js';
import { GoalsRepository } from '../goals/goals.repository.js';
import { goalsWritable } from '../goals/goals.service.js';
import { BOM, csvDisposition, csvLine, ReportEngine, type ResultRow, normalValue, ReportAnswers, datesOf, periodSample, Sampling, scaledCount } from '../engine/index.js';
import { CLOCK, DB, type Clock } from '../tokens.js';
import { compileConversionBreakdown, compileConversionSide, compileConversionTable, type ConversionBreakdown, type ConversionDimension, type ConversionPeriod, type ConversionTableQuery } from './conversion-sql.js';
import {
  CONVERSION_TABLE_DEFAULT_LIMIT,
  CONVERSIONS_A_CALL,
  type ConversionListQueryDto,
  type ConversionsReportDto,
  type ConversionTableDto,
  type ConversionWidgetDto,
  type CreateConversionDto,
  type UpdateConversionDto,
} from './conversion.dto.js';

/** `eventbase_conversion_{widget}` of the widget call's path. */
const WIDGET_PATH = /^eventbase_conversion_(\w+)$/;

/** What the table's and the widgets' bodies share. */
type ConversionBreakdownRequest = Pick<ConversionTableDto, 'conversion_id' | 'date_start' | 'date_end' | 'attribution' | 'attribution_window' | 'sample'>;

/** A side of a conversion as read: its counts by day and in total, unscaled. */
type Side = ConversionFigures['numerator'];

/** A conversion's row with its owner's e-mail and whether the caller marked it. */
interface ConversionRow {
  id: number;
  project_id: number;
  owner_id: number | null;
  email: string | null;
  title: string;
  description: string;
  metric: ConversionMetric;
  numerator_goal_id: number;
  denominator_goal_id: number | null;
  access: ConversionAccess;
  attribution: AttributionModel;
  attribution_window: number;
  is_favorite: boolean;
  updated_at: Date;
}

const COLUMNS = `c.id, c.project_id, c.owner_id, u.email, c.title, c.description, c.metric, c.numerator_goal_id, c.denominator_goal_id,
                 c.access, c.attribution, c.attribution_window, f.user_id IS NOT NULL AS is_favorite, c.updated_at`;
/** $2 is the caller (0: nobody), for the favourite mark. */
const FROM = `FROM conversions c LEFT JOIN users u ON u.id = c.owner_id
              LEFT JOIN conversion_favorites f ON f.conversion_id = c.id AND f.user_id = $2`;
const likeOf = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Conversions (spec 002 §2–§7): stored in Postgres, counted in ClickHouse from the goals' events,
 * the source credited by the attribution model over the visitor's visits in the window.
 * Personal ones are their creator's; public ones everyone's who views the project; only the
 * creator deletes; on the demo project only an administrator changes anything (§5).
 */
@Injectable()
export class ConversionsService {
  constructor(
    @Inject(DB) private readonly db: Db,
    @Inject(ProjectAccess) private readonly access: ProjectAccess,
    @Inject(GoalsRepository) private readonly goals: GoalsRepository,
    @Inject(ReportEngine) private readonly engine: ReportEngine,
    @Inject(ReportAnswers) private readonly reports: ReportAnswers,
    @Inject(Sampling) private readonly sampling: Sampling,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async list(user: Principal | null, q: ConversionListQueryDto): Promise<ConversionList> {
    await this.access.viewable(user, q.project_id);
    const userId = user?.id ?? 0;
    const where = ['c.project_id = $1', "(c.access = 'common' OR c.owner_id = $2)"];
    const params: unknown[] = [q.project_id, userId];
    if (q.show_common === false) where.push('c.owner_id = $2');
    if (q.search?.trim()) {
      params.push(likeOf(q.search.trim()));
      where.push(`c.title ILIKE $${params.length}`);
    }
    const condition = where.join(' AND ');
    const [count] = await this.db.query<{ n: number }>(`SELECT count(*) AS n ${FROM} WHERE ${condition}`, params);
    const rows = await this.db.query<ConversionRow>(
      `SELECT ${COLUMNS} ${FROM} WHERE ${condition} ORDER BY c.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, q.limit ?? 100, q.offset ?? 0],
    );
    return { conversions: rows.map((r) => view(r, user)), totals: Number(count?.n ?? 0) };
  }

  async get(user: Principal, id: number): Promise<Conversion> {
    const row = await this.visible(user, id);
    await this.access.viewable(user, Number(row.project_id));
    return view(row, user);
  }

  async create(user: Principal, dto: CreateConversionDto): Promise<Conversion> {
    const project = await this.access.viewable(user, dto.project_id);
    if (!goalsWritable(project)) throw new ForbiddenException(FORBIDDEN);
    await this.goalOf(user, dto.project_id, dto.numerator_goal_id);
    if (dto.denominator_goal_id != null) await this.goalOf(user, dto.project_id, dto.denominator_goal_id);
    const [inserted] = await this.db.query<{ id: number }>(
      `INSERT INTO conversions (project_id, owner_id, title, description, metric, numerator_goal_id, denominator_goal_id, access, attribution, attribution_window)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
      [
        dto.project_id,
        user.id,
        dto.title,
        dto.description ?? '',
        dto.metric ?? 'visits',
        dto.numerator_goal_id,
        dto.denominator_goal_id ?? null,
        dto.access ?? 'own',
        dto.attribution ?? 'last_click',
        dto.attribution_window ?? 7,
      ],
    );
    const id = Number(inserted!.id);
    if (dto.is_favorite) await this.setFavorite(user, id, true);
    return this.get(user, id);
  }

  async update(user: Principal, id: number, dto: UpdateConversionDto): Promise<Conversion> {
    const current = await this.visible(user, id);
    const project = await this.access.viewable(user, Number(current.project_id));
    const { is_favorite, ...fields } = dto;
    const changes = Object.entries(fields).filter(([, v]) => v !== undefined);
    if (changes.length === 0 && is_favorite === undefined) throw new BadRequestException('Nothing to change: send a field of the conversion or is_favorite');
    if (changes.length > 0) {
      // A favourite is the caller's own mark; the conversion itself is its creator's, a public one also the project's editors'.
      if (!goalsWritable(project) || !(ownedBy(current, user) || (current.access === 'common' && project.edit))) throw new ForbiddenException(FORBIDDEN);
      if (fields.numerator_goal_id !== undefined) await this.goalOf(user, Number(current.project_id), fields.numerator_goal_id);
      if (fields.denominator_goal_id != null) await this.goalOf(user, Number(current.project_id), fields.denominator_goal_id);
      await this.db.query(
        `UPDATE conversions SET title = $2, description = $3, metric = $4, numerator_goal_id = $5, denominator_goal_id = $6, access = $7,
                attribution = $8, attribution_window = $9, updated_at = now() WHERE id = $1`,
        [
          id,
          fields.title ?? current.title,
          fields.description ?? current.description,
          fields.metric ?? current.metric,
          fields.numerator_goal_id ?? current.numerator_goal_id,
          fields.denominator_goal_id === undefined ? current.denominator_goal_id : fields.denominator_goal_id,
          fields.access ?? current.access,
          fields.attribution ?? current.attribution,
          fields.attribution_window ?? current.attribution_window,
        ],
      );
    }
    if (is_favorite !== undefined) await this.setFavorite(user, id, is_favorite);
    return this.get(user, id);
  }

  /** §5: deleted by its creator only. */
  async remove(user: Principal, id: number): Promise<Record<string, never>> {
    const current = await this.visible(user, id);
    const project = await this.access.viewable(user, Number(current.project_id));
    if (!ownedBy(current, user) || !goalsWritable(project)) throw new ForbiddenException(FORBIDDEN);
    await this.db.query('DELETE FROM conversions WHERE id = $1', [id]);
    return {};
  }

  /** The figures of the project's conversions the caller sees over a period: each side by day and in total, and the value. */
  async report(user: Principal | null, projectId: number, body: ConversionsReportDto): Promise<ConversionsReport> {
    const period = await this.periodOf(projectId, body);
    const ids = body.conversion_ids;
    const rows = await this.db.query<ConversionRow>(
      `SELECT ${COLUMNS} ${FROM} WHERE c.project_id = $1 AND (c.access = 'common' OR c.owner_id = $2)${ids ? ' AND c.id = ANY($3::bigint[])' : ''}
       ORDER BY c.id DESC LIMIT ${CONVERSIONS_A_CALL}`,
      ids ? [projectId, user?.id ?? 0, ids] : [projectId, user?.id ?? 0],
    );
    const conversions = await Promise.all(
      rows.map(async (row): Promise<ConversionFigures> => {
        const [numerator, denominator] = await Promise.all([
          this.side(period, row.metric, await this.bodyOf(Number(row.numerator_goal_id)), body.filters),
          this.side(period, row.metric, row.denominator_goal_id === null ? null : await this.bodyOf(Number(row.denominator_goal_id)), body.filters),
        ]);
        // The value from the counts as read: scaling both sides by one factor would only add rounding.
        return { id: Number(row.id), numerator: scaledSide(numerator, period.sample), denominator: scaledSide(denominator, period.sample), conversion: conversionValue(numerator.totals, denominator.totals) };
      }),
    );
    return { conversions, sample: period.sample };
  }

  /**
   * One conversion by the values of the asked dimensions its converted units are credited to (the
   * model and window of the request, else the conversion's own), beside the denominator by each
   * unit's own values; sorted, paged and counted in ClickHouse.
   */
  async table(user: Principal | null, projectId: number, body: ConversionTableDto): Promise<ConversionTable> {
    const limit = body.limit ?? CONVERSION_TABLE_DEFAULT_LIMIT;
    const offset = body.offset ?? 0;
    const { dimensions, sort, rows, data, totals, breakdown, period, attribution, window } = await this.tableOf(user, projectId, body, { limit, offset });
    return {
      dimensions,
      available_dimensions: [...CONVERSION_TABLE_DIMENSIONS],
      available_metrics: [...CONVERSION_TABLE_METRICS],
      data,
      totals,
      meta: {
        total: Number(rows[0]?.total_rows ?? (offset === 0 ? 0 : await this.countOf(period, breakdown))),
        offset,
        limit,
        sort,
        attribution,
        attribution_window: window,
        sample: period.sample,
      },
    };
  }

  /**
   * The whole table as CSV (the reports' writer: BOM, semicolons, comma decimals, formulas kept as text), named by the conversion and the period.
   * Read whole whatever sample is asked, as the reports' CSV (spec 001 §7 "…without offset and limit, sample 1"): a file is kept and compared.
   */
  async csv(user: Principal, projectId: number, body: ConversionTableDto): Promise<{ disposition: string; text: string }> {
    const { dimensions, data, totals, period, title } = await this.tableOf(user, projectId, { ...body, sample: 1 }, { offset: 0 });
    const lines = [
      csvLine([...dimensions.map((d) => CONVERSION_DIMENSION_TITLES[d]), ...CONVERSION_TABLE_METRICS.map((m) => CONVERSION_METRIC_TITLES[m])]),
      csvLine([CONVERSION_TOTAL_TITLE, ...dimensions.slice(1).map(() => ''), totals.numerator, totals.denominator, shownConversion(totals.conversion)]),
      ...data.map((row) => csvLine([...dimensions.map((d) => row.titles[d] ?? EMPTY_TITLE), row.numerator, row.denominator, shownConversion(row.conversion)])),
    ];
    return { disposition: csvDisposition('conversion', `Конверсия ${title}`, period.dateStart, period.dateEnd), text: BOM + lines.join('') };
  }

  /**
   * A widget (§2): the conversion by one of its tabs' dimension, the categories with the most
   * converted units first (at most CONVERSION_WIDGET_LINES), each with its figures for the period
   * and by day. A dimension the service does not collect is one category, «Не определено».
   */
  async widget(user: Principal | null, projectId: number, widgetName: string, body: ConversionWidgetDto): Promise<ConversionWidgetResult> {
    const name = WIDGET_PATH.exec(widgetName)?.[1];
    const widget = CONVERSION_WIDGETS.find((w) => w === name);
    if (widget === undefined) throw new NotFoundException(`Нет такого виджета: ${widgetName}`);
    const tabs: readonly ConversionWidgetDimension[] = CONVERSION_WIDGET_INFO[widget].dimensions;
    const dimension = body.dimension ?? tabs[0]!;
    if (!tabs.includes(dimension)) throw new BadRequestException(`dimension must be one of ${tabs.join(', ')}`);
    const { breakdown, period, attribution, window } = await this.breakdownOf(user, projectId, body, [dimension]);
    const [whole, byDay] = await Promise.all([
      this.engine.rows(compileConversionBreakdown(period, breakdown), 'conversion'),
      this.engine.rows(compileConversionBreakdown(period, { ...breakdown, byDay: true }), 'conversion'),
    ]);
    const top = whole
      .map((r) => ({ value: String(r.value), numerator: Number(r.numerator), denominator: Number(r.denominator) }))
      .sort((a, b) => b.numerator - a.numerator || b.denominator - a.denominator || a.value.localeCompare(b.value))
      .slice(0, CONVERSION_WIDGET_LINES);
    const titles = await this.reports.titles(dimension, top.map((c) => normalValue(c.value, dimension)));
    const data: Record<string, ConversionWidgetCategory> = {};
    const figures = (numerator: number, denominator: number) => sampledFigures(numerator, denominator, period.sample);
    for (const c of top) {
      const points = byDay
        .filter((r) => String(r.value) === c.value)
        .map((r) => ({ date: String(r.date), ...figures(Number(r.numerator), Number(r.denominator)) }))
        .sort((a, b) => a.date.localeCompare(b.date));
      data[c.value] = { title: titles.get(String(normalValue(c.value, dimension))) ?? EMPTY_TITLE, ...figures(c.numerator, c.denominator), points };
    }
    const storage = DIMENSIONS[dimension];
    return {
      data,
      meta: {
        dimensions: [dimension],
        order: top.map((c) => c.value),
        attribution,
        attribution_window: window,
        sample: period.sample,
        ...(storage.table === null ? { not_collected: storage.reason } : {}),
      },
    };
  }

  /** The conversion the caller sees on the project, its goals' conditions, the period and the attribution asked (else the conversion's own). */
  private async breakdownOf(
    user: Principal | null,
    projectId: number,
    body: ConversionBreakdownRequest,
    dimensions: readonly ConversionDimension[],
  ): Promise<{ breakdown: ConversionBreakdown; period: ConversionPeriod; attribution: AttributionModel; window: AttributionWindow; title: string }> {
    const period = await this.periodOf(projectId, body);
    const [row] = await this.db.query<ConversionRow>(`SELECT ${COLUMNS} ${FROM} WHERE c.id = $1 AND c.project_id = $3 AND (c.access = 'common' OR c.owner_id = $2)`, [
      body.conversion_id,
      user?.id ?? 0,
      projectId,
    ]);
    if (!row) throw new NotFoundException(CONVERSION_TEXTS.notFound);
    const attribution = body.attribution ?? row.attribution;
    const window = (body.attribution_window ?? row.attribution_window) as AttributionWindow;
    const numerator = await this.bodyOf(Number(row.numerator_goal_id));
    const denominator = row.denominator_goal_id === null ? null : await this.bodyOf(Number(row.denominator_goal_id));
    return { breakdown: { metric: row.metric, numerator, denominator, model: attribution, windowDays: window, dimensions }, period, attribution, window, title: row.title };
  }

  /**
   * The table's three queries, one page of it (`limit` undefined: every row, as the CSV wants): its rows
   * sorted as asked, with their values' titles, and the totals of each side over the whole period.
   */
  private async tableOf(user: Principal | null, projectId: number, body: ConversionTableDto, paging: Pick<ConversionTableQuery, 'limit' | 'offset'>) {
    const { breakdown, period, attribution, window, title } = await this.breakdownOf(user, projectId, body, body.dimensions ?? [CONVERSION_TABLE_DIMENSIONS[0]]);
    const dimensions = breakdown.dimensions as ConversionTableDimension[];
    const sort = this.sortOf(body, dimensions);
    const [rows, numeratorSide, denominatorSide] = await Promise.all([
      this.engine.rows(compileConversionTable(period, breakdown, { sortBy: sort.name, order: sort.order, ...paging }), 'conversion'),
      this.side(period, breakdown.metric, breakdown.numerator),
      this.side(period, breakdown.metric, breakdown.denominator),
    ]);
    const totals = sampledFigures(numeratorSide.totals, denominatorSide.totals, period.sample);
    return { dimensions, sort, rows, data: await this.titled(dimensions, rows, period.sample), totals, breakdown, period, attribution, window, title };
  }

  /** The sort asked, a dimension of the table or a metric (default: converted units, most first). */
  private sortOf(body: ConversionTableDto, dimensions: readonly ConversionTableDimension[]): { name: ConversionTableDimension | ConversionTableMetric; order: 'asc' | 'desc' } {
    const name = body.sort?.name ?? 'numerator';
    const isDimension = (CONVERSION_TABLE_DIMENSIONS as readonly string[]).includes(name);
    if (isDimension && !dimensions.includes(name as ConversionTableDimension)) throw new BadRequestException(`sort.name: ${name} is not among the dimensions`);
    return { name, order: body.sort?.order ?? (isDimension ? 'asc' : 'desc') };
  }

  /** Rows of a page past the last one: how many the table has (the page itself has none to say it). */
  private async countOf(period: ConversionPeriod, breakdown: ConversionBreakdown): Promise<number> {
    const rows = await this.engine.rows(compileConversionTable(period, breakdown, { sortBy: 'numerator', order: 'desc', limit: 1, offset: 0 }), 'conversion');
    return Number(rows[0]?.total_rows ?? 0);
  }

  /**
   * The table's rows with the values' titles (traffic types and systems in Russian, «Не определено» for
   * an empty value), their counts scaled back from the sample (the conversion, a ratio, as ClickHouse read it).
   */
  private async titled(dimensions: readonly ConversionTableDimension[], rows: readonly ResultRow[], sample: number): Promise<ConversionTableRow[]> {
    const titles = await Promise.all(dimensions.map((d) => this.reports.titles(d, rows.map((r) => normalValue(r[d], d)))));
    return rows.map((r) => {
      const row: ConversionTableRow = {
        titles: {},
        numerator: scaledCount(Number(r.numerator), sample),
        denominator: scaledCount(Number(r.denominator), sample),
        conversion: r.conversion === null ? null : Number(r.conversion),
      };
      dimensions.forEach((d, i) => {
        const value = String(r[d] ?? '');
        row[d] = value;
        row.titles[d] = titles[i]!.get(String(normalValue(value, d))) ?? EMPTY_TITLE;
      });
      return row;
    });
  }

  /** The period asked and its sample: as the reports read it, today and a small period whole whatever was asked. */
  private async periodOf(projectId: number, body: { date_start: string; date_end: string; sample?: number | undefined }): Promise<ConversionPeriod> {
    const today = moscowDate(this.clock());
    const period = datesOf(body, today);
    return { projectId, ...period, sample: await this.sampling.sampleOf(projectId, period, periodSample(body.sample, period, today)) };
  }

  /** A side by day and in total, as read from the period's sample (unscaled: see {@link scaledSide}), of the visits the filters keep. */
  private async side(period: ConversionPeriod, metric: ConversionMetric, goal: GoalBody | null, filters: readonly DimensionFilterRule[] = []): Promise<Side> {
    const rows = await this.engine.rows(compileConversionSide(period, metric, goal, filters), 'conversion');
    const data = rows.filter((r) => r.day !== '').map((r) => ({ date: String(r.day), value: Number(r.value) })).sort((a, b) => a.date.localeCompare(b.date));
    return { data, totals: Number(rows.find((r) => r.day === '')?.value ?? 0) };
  }

  /** A goal's conditions, even of a goal deleted since (a conversion keeps counting what it counted). */
  private async bodyOf(goalId: number): Promise<GoalBody> {
    const goal = await this.goals.byId(goalId);
    if (!goal) throw new NotFoundException(CONVERSION_TEXTS.goalNotFound);
    return goal.body;
  }

  /** A live goal of the project that the caller sees, else 400 with the field. */
  private async goalOf(user: Principal, projectId: number, goalId: number): Promise<void> {
    const goal = await this.goals.byId(goalId);
    const seen = goal && !goal.is_deleted && Number(goal.project_id) === projectId && (goal.access === 'common' || Number(goal.owner_id) === user.id);
    if (!seen) throw new BadRequestException(`${CONVERSION_TEXTS.goalNotFound}: ${goalId}`);
  }

  private async setFavorite(user: Principal, id: number, on: boolean): Promise<void> {
    if (on) await this.db.query('INSERT INTO conversion_favorites (user_id, conversion_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [user.id, id]);
    else await this.db.query('DELETE FROM conversion_favorites WHERE user_id = $1 AND conversion_id = $2', [user.id, id]);
  }

  private async visible(user: Principal, id: number): Promise<ConversionRow> {
    const [row] = await this.db.query<ConversionRow>(`SELECT ${COLUMNS} ${FROM} WHERE c.id = $1`, [id, user.id]);
    if (!row || (row.access !== 'common' && !ownedBy(row, user))) throw new NotFoundException(CONVERSION_TEXTS.notFound);
    return row;
  }
}


/** A side's counts scaled back to the whole. */
const scaledSide = (side: Side, sample: number): Side => ({ data: side.data.map((p) => ({ date: p.date, value: scaledCount(p.value, sample) })), totals: scaledCount(side.totals, sample) });

/**
 * Both sides scaled back, and the conversion of the counts as read: a ratio of two counts of the
 * same sample, which scaling both by one factor would leave the same but for rounding.
 */
function sampledFigures(numerator: number, denominator: number, sample: number): { numerator: number; denominator: number; conversion: number | null } {
  return { numerator: scaledCount(numerator, sample), denominator: scaledCount(denominator, sample), conversion: conversionValue(numerator, denominator) };
}

/** §3: a conversion as the table shows it, 6 decimals below 1, else 2 (null stays: «NA»). */
const shownConversion = (value: number | null): number | null => (value === null ? null : Number(value.toFixed(value < 1 ? 6 : 2)));

const ownedBy = (row: ConversionRow, user: Principal | null): boolean => user !== null && row.owner_id !== null && Number(row.owner_id) === user.id;

function view(row: ConversionRow, user: Principal | null): Conversion {
  return {
    id: Number(row.id),
    project_id: Number(row.project_id),
    title: row.title,
    description: row.description,
    metric: row.metric,
    numerator_goal_id: Number(row.numerator_goal_id),
    denominator_goal_id: row.denominator_goal_id === null ? null : Number(row.denominator_goal_id),
    access: row.access,
    is_favorite: row.is_favorite,
    email: row.email === null ? null : { email: row.email },
    is_owner: ownedBy(row, user),
    attribution: row.attribution,
    attribution_window: row.attribution_window as AttributionWindow,
    update_date: row.updated_at.toISOString(),
  };
}

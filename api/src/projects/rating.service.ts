import { BadRequestException, Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { inRatingOrModeration, moscowDate, moscowDayStart, type ProjectCategory, type RatingStatus, type RatingTreeNode } from '@stat/schemas';
import type { Db } from '../db/db.js';
import { FieldErrorsException } from '../http/field-errors.js';
import { DB, SETTINGS, type ApiSettings } from '../tokens.js';
import { compileProjectSpans, metricAlias, ReportEngine } from '../engine/index.js';
import type { Principal } from '../auth/principal.js';
import type { ProjectRow } from './projects.repository.js';
import { byPopularity, LISTED_STATUSES } from './rating-report.js';

/** Statuses in which the owner cannot edit the rating form (specification 000, §4). */
const LOCKED_STATUSES: ReadonlySet<RatingStatus> = new Set(['editing', 'need_change', 'dropped_out', 'excluded']);

const LIMITS = { themes: 7, types: 2, regions: 10, ratedTitle: 55, keywordsMin: 3, keywordsMax: 500 };
const RATING_TEXTS = {
  themesRequired: 'Обязательное поле',
  themesMax: 'Максимальное количество тем: 7',
  typesMax: 'Максимальное количество типов: 2',
  regionsMax: 'Максимальное количество регионов: 10',
  keywords: 'Ключевые слова: от 3 до 500 символов',
  publicStats: 'Необходимо выбрать один из пунктов',
  titleTooLong: 'Превышен лимит символов',
  unknown: 'Неизвестное значение',
  locked: 'Редактирование рейтинга недоступно в этом статусе',
  cannotBeRated: 'Сайт не может участвовать в рейтинге',
};

export type ModerationAction = 'approve' | 'reject' | 'request_change' | 'exclude' | 'restore';

/** The moderators' transitions: from which statuses an action leads where. */
export const TRANSITIONS: Record<ModerationAction, { from: readonly RatingStatus[]; to: RatingStatus; inRating: boolean }> = {
  approve: { from: ['moderation', 'editing', 'need_change'], to: 'included', inRating: true },
  reject: { from: ['moderation'], to: 'unincluded', inRating: false },
  request_change: { from: ['moderation', 'editing', 'included'], to: 'need_change', inRating: true },
  exclude: { from: ['unincluded', 'moderation', 'editing', 'need_change', 'included', 'dropped_out', 'default'], to: 'excluded', inRating: false },
  restore: { from: ['excluded', 'dropped_out'], to: 'unincluded', inRating: false },
};

type Dictionary = 'rating_themes' | 'rating_types' | 'rating_regions';

const DAY_MS = 86_400_000;
/**
 * The advisory lock of the positions' recompute: this constant with a hash of the schema, so
 * that services sharing one database in separate schemas do not wait for each other.
 */
const RECOMPUTE_LOCK = 7_596_045;

/**
 * Rating participation: the dictionaries, the owner's form and its statuses, moderation by
 * staff, and positions per theme by popularity (visitors from 8 to 2 days back, the rating
 * period of specification 001, §9), recomputed daily.
 */
interface RatedSite {
  id: number;
  categories: number[];
  created_at: Date;
  rating_status: string;
}

/**
 * The places of rated sites in each of their themes by popularity (more visitors first, then
 * the older id), and the sites that drop out: in the rating for a whole period (created more
 * than 8 days before `nowMs`) without one visitor.
 */
function rankRatedSites(
  rated: readonly RatedSite[],
  popularity: ReadonlyMap<number, number>,
  nowMs: number,
): { dropped: RatedSite[]; positions: { id: number; category: number; position: number; popularity: number }[] } {
  const dropped = rated.filter(
    (p) => p.rating_status === 'included' && (popularity.get(p.id) ?? 0) === 0 && p.created_at.getTime() < nowMs - 8 * DAY_MS,
  );
  const byCategory = new Map<number, { id: number; popularity: number }[]>();
  for (const project of rated.filter((p) => !dropped.includes(p))) {
    for (const category of project.categories) {
      const list = byCategory.get(category) ?? [];
      list.push({ id: project.id, popularity: popularity.get(project.id) ?? 0 });
      byCategory.set(category, list);
    }
  }
  const positions = [...byCategory].flatMap(([category, list]) =>
    list
      .sort(byPopularity)
      .map((entry, index) => ({ id: entry.id, category, position: index + 1, popularity: entry.popularity })),
  );
  return { dropped, positions };
}

/** How old the positions may be before a scheduled run computes them again. */
export const RECOMPUTE_DUE_MS = 23 * 3_600_000;

@Injectable()
export class RatingService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('rating');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number | null> | null = null;

  constructor(
    @Inject(DB) private readonly db: Db,
    @Inject(ReportEngine) private readonly engine: ReportEngine,
    @Inject(SETTINGS) private readonly settings: ApiSettings,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.settings.ratingSchedule) return;
    const run = (): void => void this.recomputeIfDue().catch((error: unknown) => this.logger.warn(`positions: ${String(error)}`));
    setTimeout(run, 5_000).unref();
    this.timer = setInterval(run, DAY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  isRated(row: Pick<ProjectRow, 'in_rating' | 'rating_status'>): boolean {
    return inRatingOrModeration(row.in_rating, row.rating_status);
  }

  async tree(dictionary: Dictionary): Promise<RatingTreeNode[]> {
    const rows = await this.db.query<{ id: number; parent_id: number | null; title: string; children: number }>(
      `SELECT d.id, d.parent_id, d.title, (SELECT count(*) FROM ${dictionary} c WHERE c.parent_id = d.id) AS children
       FROM ${dictionary} d ORDER BY coalesce(d.parent_id, d.id), d.parent_id NULLS FIRST, d.id`,
    );
    return rows.map((r) => ({
      id: r.id,
      parent_id: r.parent_id,
      title: r.title,
      ...(dictionary === 'rating_themes' ? { theme_id: r.parent_id ?? r.id } : {}),
      can_be_expanded: r.children > 0,
    }));
  }

  async categoriesOf(row: Pick<ProjectRow, 'id' | 'categories'>): Promise<ProjectCategory[]> {
    if (row.categories.length === 0) return [];
    const rows = await this.db.query<{ id: number; title: string; parent_title: string | null; parent_id: number | null; position: number | null }>(
      `SELECT t.id, t.title, p.title AS parent_title, t.parent_id, rp.position
       FROM rating_themes t
       LEFT JOIN rating_themes p ON p.id = t.parent_id
       LEFT JOIN rating_positions rp ON rp.category_id = t.id AND rp.project_id = $1
       WHERE t.id = ANY($2::int[]) ORDER BY t.id`,
      [row.id, row.categories],
    );
    return rows.map((r) => ({
      id: r.id,
      title: r.title,
      parent_title: r.parent_title,
      theme_id: r.parent_id ?? r.id,
      name: r.title,
      position: r.position,
      positions: { popularity: r.position },
    }));
  }

  /** The owner's rating form (PUT /project/{id} with in_rating and the lists). */
  async saveForm(
    row: ProjectRow,
    body: { title?: string; in_rating?: boolean; keywords?: string; public_stats?: boolean; categories?: number[]; regions?: number[]; types?: number[] },
  ): Promise<void> {
    const leaving = body.in_rating !== true;
    // In a locked status the form cannot change, but the owner may still leave the rating
    // (the switch stays on, specification 000, §4), except when the administration excluded the site.
    if (LOCKED_STATUSES.has(row.rating_status) && !(leaving && row.rating_status !== 'excluded')) {
      throw new BadRequestException(RATING_TEXTS.locked);
    }
    if (leaving) {
      // Leaving the rating clears the form (specification 000, §4).
      await this.db.transaction(async (tx) => {
        await tx.query(
          `UPDATE projects SET in_rating = false, public_stats = false, categories = '{}', regions = '{}', types = '{}',
                  rating_status = 'unincluded', updated_at = now() WHERE id = $1`,
          [row.id],
        );
        await tx.query('DELETE FROM rating_positions WHERE project_id = $1', [row.id]);
        await this.log(tx, row.id, null, 'leave', row.rating_status, 'unincluded');
      });
      return;
    }
    if (!row.can_be_in_rate) throw new BadRequestException(RATING_TEXTS.cannotBeRated);
    const title = body.title?.trim() ?? row.title;
    const categories = [...new Set(body.categories ?? [])];
    const regions = [...new Set(body.regions ?? [])];
    const types = [...new Set(body.types ?? [])];
    const keywords = (body.keywords ?? '').trim();
    const fields: Record<string, string[]> = {};
    if (title.length > LIMITS.ratedTitle) fields.title = [RATING_TEXTS.titleTooLong];
    if (title.length < 3) fields.title = ['Минимум 3 символа'];
    if (categories.length === 0) fields.categories = [RATING_TEXTS.themesRequired];
    if (categories.length > LIMITS.themes) fields.categories = [RATING_TEXTS.themesMax];
    if (types.length > LIMITS.types) fields.types = [RATING_TEXTS.typesMax];
    if (regions.length > LIMITS.regions) fields.regions = [RATING_TEXTS.regionsMax];
    if (keywords.length < LIMITS.keywordsMin || keywords.length > LIMITS.keywordsMax) fields.keywords = [RATING_TEXTS.keywords];
    if (body.public_stats === undefined) fields.public_stats = [RATING_TEXTS.publicStats];
    for (const [name, ids, dictionary] of [
      ['categories', categories, 'rating_themes'],
      ['types', types, 'rating_types'],
      ['regions', regions, 'rating_regions'],
    ] as const) {
      if (fields[name] || ids.length === 0) continue;
      const [known] = await this.db.query<{ n: number }>(`SELECT count(*) AS n FROM ${dictionary} WHERE id = ANY($1::int[])`, [ids]);
      if ((known?.n ?? 0) !== ids.length) fields[name] = [RATING_TEXTS.unknown];
    }
    const texts = Object.values(fields).flat();
    if (texts.length > 0) throw new FieldErrorsException(texts.join('; '), fields);
    const status = row.rating_status === 'included' ? 'editing' : 'moderation';
    await this.db.transaction(async (tx) => {
      await tx.query(
        `UPDATE projects SET title = $2, keywords = $3, public_stats = $4, categories = $5::int[], regions = $6::int[],
                types = $7::int[], in_rating = true, rating_status = $8, updated_at = now() WHERE id = $1`,
        [row.id, title, keywords, body.public_stats, categories, regions, types, status],
      );
      await this.log(tx, row.id, null, 'submit', row.rating_status, status);
    });
  }

  async moderate(user: Principal, projectId: number, action: ModerationAction): Promise<{ status: RatingStatus }> {
    const transition = TRANSITIONS[action];
    return this.db.transaction(async (tx) => {
      const [row] = await tx.query<{ rating_status: RatingStatus }>('SELECT rating_status FROM projects WHERE id = $1 FOR UPDATE', [projectId]);
      if (!row) throw new BadRequestException('the project no longer exists');
      if (!transition.from.includes(row.rating_status)) {
        throw new BadRequestException(`Действие ${action} недоступно в статусе ${row.rating_status}`);
      }
      await tx.query('UPDATE projects SET rating_status = $2, in_rating = $3, updated_at = now() WHERE id = $1', [
        projectId,
        transition.to,
        transition.inRating,
      ]);
      if (!transition.inRating) await tx.query('DELETE FROM rating_positions WHERE project_id = $1', [projectId]);
      await this.log(tx, projectId, user.id, action, row.rating_status, transition.to);
      return { status: transition.to };
    });
  }

  async queue(status: string, limit: number, offset: number) {
    const rows = await this.db.query<{ id: number; title: string; url: string; rating_status: string; categories: number[]; keywords: string; updated_at: Date }>(
      `SELECT id, title, url, rating_status, categories, keywords, updated_at FROM projects
       WHERE rating_status = $1 AND deleted_at IS NULL ORDER BY updated_at, id LIMIT $2 OFFSET $3`,
      [status, limit, offset],
    );
    const [count] = await this.db.query<{ n: number }>('SELECT count(*) AS n FROM projects WHERE rating_status = $1 AND deleted_at IS NULL', [status]);
    return {
      data: rows.map((r) => ({ id: r.id, title: r.title, url: r.url, status: r.rating_status, categories: r.categories, keywords: r.keywords, updated: r.updated_at.toISOString() })),
      total: count?.n ?? 0,
    };
  }

  /**
   * The scheduled run: recomputes unless positions were computed less than RECOMPUTE_DUE_MS
   * ago, by this process or another. Every api process keeps its own daily timer (and one at
   * its start); this makes their runs one a day between them, not one a day each.
   */
  async recomputeIfDue(nowMs = Date.now()): Promise<number | null> {
    const [last] = await this.db.query<{ at: Date | null }>('SELECT max(computed_at) AS at FROM rating_positions');
    if (last?.at && nowMs - last.at.getTime() < RECOMPUTE_DUE_MS) return null;
    return this.recompute(nowMs);
  }

  /**
   * Positions per theme by visitors over the rating period; returns the number of positions
   * written, or null when another api process is recomputing right now (several api processes
   * share one Postgres in cluster mode; the daily run happens in one of them at a time). A call
   * made while this process recomputes waits for that run and gets its answer.
   */
  recompute(nowMs = Date.now()): Promise<number | null> {
    this.running ??= this.recomputeOnce(nowMs).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async recomputeOnce(nowMs: number): Promise<number | null> {
    // One transaction holds the lock from reading the rated sites to the last write, so a second
    // process neither writes the same positions again nor drops a site twice. (On PGlite the
    // transaction holds the database during the ClickHouse query, one short query a day.)
    return this.db.transaction(async (tx) => {
      const [lock] = await tx.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock($1::int, hashtext(current_schema())) AS locked', [
        RECOMPUTE_LOCK,
      ]);
      if (lock?.locked !== true) return null;
      const rated = await tx.query<RatedSite>(
        `SELECT id, categories, created_at, rating_status FROM projects WHERE rating_status = ANY($1::text[]) AND deleted_at IS NULL`,
        [[...LISTED_STATUSES]],
      );
      const popularity = new Map<number, number>();
      if (rated.length > 0) {
        // Popularity: the visitors of the week that ended the day before yesterday (Moscow days),
        // distinct over the week, with the report engine's definition of visitors.
        const week = { from: moscowDayStart(moscowDate(nowMs - 8 * DAY_MS)) / 1000, to: moscowDayStart(moscowDate(nowMs - 2 * DAY_MS)) / 1000 + 23 * 3600 };
        const rows = await this.engine.rows(compileProjectSpans(rated.map((r) => r.id), [week], ['visitors']), 'rating');
        for (const row of rows) popularity.set(Number(row.project_id), Number(row[metricAlias(0)]));
      }
      const { dropped, positions } = rankRatedSites(rated, popularity, nowMs);
      await tx.query('DELETE FROM rating_positions');
      for (const entry of positions) {
        await tx.query('INSERT INTO rating_positions (project_id, category_id, position, popularity) VALUES ($1, $2, $3, $4)', [
          entry.id,
          entry.category,
          entry.position,
          entry.popularity,
        ]);
      }
      for (const project of dropped) {
        // Only if no moderator changed the status since it was read.
        const changed = await tx.query(
          "UPDATE projects SET rating_status = 'dropped_out', in_rating = false WHERE id = $1 AND rating_status = 'included' RETURNING id",
          [project.id],
        );
        if (changed.length > 0) await this.log(tx, project.id, null, 'drop', 'included', 'dropped_out');
      }
      return positions.length;
    });
  }

  async catalogue(categoryId: number, limit: number, offset: number) {
    const rows = await this.db.query<{ id: number; title: string; url: string; favicon: string | null; position: number; popularity: number; public_stats: boolean }>(
      `SELECT p.id, p.title, p.url, p.favicon, rp.position, rp.popularity, p.public_stats
       FROM rating_positions rp JOIN projects p ON p.id = rp.project_id
       WHERE rp.category_id = $1 AND p.deleted_at IS NULL AND p.rating_status = ANY($2::text[])
       ORDER BY rp.position, p.id LIMIT $3 OFFSET $4`,
      [categoryId, [...LISTED_STATUSES], limit, offset],
    );
    const [count] = await this.db.query<{ n: number }>(
      `SELECT count(*) AS n FROM rating_positions rp JOIN projects p ON p.id = rp.project_id
       WHERE rp.category_id = $1 AND p.deleted_at IS NULL AND p.rating_status = ANY($2::text[])`,
      [categoryId, [...LISTED_STATUSES]],
    );
    return {
      data: rows.map((r) => ({
        position: r.position,
        id: r.id,
        title: r.title,
        url: r.url,
        favicon: r.favicon,
        public_stats: r.public_stats,
        // The number is shown only for sites whose owners opened their statistics.
        popularity: r.public_stats ? r.popularity : null,
      })),
      total: count?.n ?? 0,
      limit,
      offset,
    };
  }

  private async log(tx: { query: Db['query'] }, projectId: number, userId: number | null, action: string, from: string, to: string): Promise<void> {
    await tx.query('INSERT INTO rating_moderation_log (project_id, user_id, action, old_status, new_status) VALUES ($1, $2, $3, $4, $5)', [
      projectId,
      userId,
      action,
      from,
      to,
    ]);
  }
}

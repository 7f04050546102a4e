import { BadRequestException, Inject, Injectable } from '@nestjs/common';
import {
  DEFAULT_COUNTER_SETTINGS,
  type CaptchaNeed,
  type CounterCode,
  type CreatedProject,
  type LinkedProjects,
  type Project,
  type ProjectList,
  type ProjectListRow,
  type SameUrlProjects,
  type SiteMetadata,
} from '@stat/schemas/projects';
import { parseSiteUrl, SITE_URL_TEXTS, type CounterCheck } from '@stat/schemas/site';
import { decide, DEMO_PROJECT_ID, type ProjectRights } from '../auth/project-access.js';
import { can, type Principal } from '../auth/principal.js';
import { RateLimiter, TOO_MANY_REQUESTS } from '../auth/rate-limit.js';
import { ProofOfWork } from '../captcha/pow.js';
import { counterCode, widgetSvg } from '../counter/counter-code.js';
import { decodePage, pageTitle } from '../net/page.js';
import { FetchRefused, PAGE_LIMITS, type PageFetcher } from '../net/safe-fetch.js';
import { FETCHER, SETTINGS, type ApiSettings } from '../tokens.js';
import { Favicons } from './favicons.js';
import { MetricsRepository } from './metrics.js';
import type { CounterCodeQueryDto, CounterSettingsDto, CreateProjectDto, ProjectListQueryDto, UpdateProjectDto } from './project.dto.js';
import { counterSettings, projectView } from './project-view.js';
import { ProjectsRepository, type ProjectRow } from './projects.repository.js';
import { RatingService } from './rating.service.js';
import { cleanUrl, normalizeSiteUrl } from './url.js';

const NOT_VALID_CAPTCHA = 'Not valid captcha';
const UNREACHABLE = 'Адрес недоступен';
const RATED_TITLE = 'Название сайта в рейтинге меняется через заявку на вкладке «Рейтинг»';
const DEMO_UNDELETABLE = 'Демо-проект нельзя удалить';
/** Projects one user creates in 24 hours before a captcha is demanded. */
const CAPTCHA_AFTER = 3;
const LIST_PAGE = 10;
const SAME_URL_PAGE = 15;
const SWITCHER_LIMIT = 100;

@Injectable()
export class ProjectService {
  constructor(
    @Inject(ProjectsRepository) private readonly projects: ProjectsRepository,
    @Inject(MetricsRepository) private readonly metrics: MetricsRepository,
    @Inject(ProofOfWork) private readonly pow: ProofOfWork,
    @Inject(Favicons) private readonly favicons: Favicons,
    @Inject(RatingService) private readonly rating: RatingService,
    @Inject(RateLimiter) private readonly limiter: RateLimiter,
    @Inject(FETCHER) private readonly fetcher: PageFetcher,
    @Inject(SETTINGS) private readonly settings: ApiSettings,
  ) {}

  async view(rights: ProjectRights): Promise<Project> {
    const row = await this.mustGet(rights.id);
    const [withEvents, media, metrics, users, categories, ununique] = await Promise.all([
      this.metrics.withEvents([row.id]),
      this.metrics.withMaterials(row.id),
      this.metrics.todayAndYesterday([row.id]),
      rights.edit ? this.projects.users(row.id) : Promise.resolve([]),
      this.rating.categoriesOf(row),
      this.projects.sameUrl(row.cleaned_url, 1, 0).then((same) => same.total > 1),
    ]);
    return projectView(row, {
      canEdit: rights.edit,
      counterIsSet: withEvents.has(row.id),
      media,
      users,
      categories,
      metrics: metrics.get(row.id) ?? null,
      ununique,
    });
  }

  /** «Проверить»: has the counter sent anything, when last, from which page. */
  async counterCheck(rights: ProjectRights): Promise<CounterCheck> {
    const last = await this.metrics.lastHit(rights.id);
    return { seen: last !== null, last_hit: last };
  }

  async captcha(user: Principal): Promise<CaptchaNeed> {
    if ((await this.projects.createdSince(user.id, 24)) < CAPTCHA_AFTER) return { need_captcha: false };
    return { need_captcha: true, captcha: await this.pow.issue() };
  }

  async create(user: Principal, body: CreateProjectDto): Promise<CreatedProject> {
    const url = parseSiteUrl(body.url);
    if (!url) throw new BadRequestException(SITE_URL_TEXTS.invalid);
    if ((await this.projects.createdSince(user.id, 24)) >= CAPTCHA_AFTER && !(await this.pow.verify(body.captcha_response))) {
      throw new BadRequestException(NOT_VALID_CAPTCHA);
    }
    const siteUrl = normalizeSiteUrl(url);
    const id = await this.projects.insert({
      title: body.title.trim(),
      url: siteUrl,
      cleanedUrl: cleanUrl(url),
      ownerId: user.id,
      counterSettings: { color: DEFAULT_COUNTER_SETTINGS.color, counter_type: 0 },
    });
    this.favicons.fetchLater(id, siteUrl);
    return { project_id: id, can_be_in_rate: true };
  }

  async update(rights: ProjectRights, body: UpdateProjectDto): Promise<Project> {
    const row = await this.mustGet(rights.id);
    const ratingForm = body.in_rating !== undefined || body.categories !== undefined || body.regions !== undefined || body.types !== undefined || body.keywords !== undefined || body.public_stats !== undefined;
    if (ratingForm) {
      if (body.counter_settings !== undefined) throw new BadRequestException('counter_settings and the rating form are saved separately');
      await this.rating.saveForm(row, body);
    } else {
      const title = body.title?.trim() ?? null;
      if (title !== null && title !== row.title && this.rating.isRated(row)) throw new BadRequestException(RATED_TITLE);
      await this.projects.updateSettings(row.id, title, body.counter_settings ? settingsPatch(body.counter_settings) : null);
    }
    return this.view(rights);
  }

  async remove(rights: ProjectRights): Promise<Record<string, never>> {
    if (rights.id === DEMO_PROJECT_ID) throw new BadRequestException(DEMO_UNDELETABLE);
    await this.projects.setDeleted(rights.id, true);
    return {};
  }

  async restore(rights: ProjectRights): Promise<void> {
    await this.projects.setDeleted(rights.id, false);
  }

  async list(user: Principal, query: ProjectListQueryDto): Promise<ProjectList> {
    const limit = query.limit ?? LIST_PAGE;
    const offset = query.offset ?? 0;
    const search = query.search?.trim() || null;
    const { rows, active, deleted } = await this.projects.list({
      userId: user.id,
      all: query.expanded === true && can(user, 'read_all_projects'),
      editAll: can(user, 'edit_all_projects'),
      deleted: query.deleted === true,
      search,
      limit,
      offset,
    });
    const ids = rows.map((r) => r.id);
    const [metrics, withEvents] = await Promise.all([this.metrics.todayAndYesterday(ids), this.metrics.withEvents(ids)]);
    const data: ProjectListRow[] = [];
    for (const row of rows) {
      const rights = decide(user, { id: row.id, deleted: row.deleted_at !== null, ownerId: row.owner_id, accessLevel: row.access_level, widget: false });
      const m = metrics.get(row.id) ?? null;
      data.push({
        id: row.id,
        title: row.title,
        url: row.url,
        favicon: row.favicon,
        status: row.deleted_at !== null ? 'deleted' : row.rating_status,
        counter_is_set: withEvents.has(row.id),
        can_edit_project: rights.edit,
        in_rating: row.in_rating,
        can_be_in_rate: row.can_be_in_rate,
        deleted: row.deleted_at !== null,
        has_access_requests: rights.edit && row.has_access_requests,
        metrics: m,
        views: m?.page_views.today ?? 0,
        views_change: m?.page_views.change ?? null,
        visitors: m?.visitors.today ?? 0,
        visitors_change: m?.visitors.change ?? null,
        categories: query.use_rating ? (await this.rating.categoriesOf(row)).map((c) => ({ id: c.id, title: c.title, position: c.position })) : [],
      });
    }
    return { data, meta: { total_rows: active, deleted_rows: deleted, limit, offset } };
  }

  async linked(user: Principal, query: { search?: string; limit?: number; offset?: number }): Promise<LinkedProjects> {
    const { rows, total } = await this.projects.linked(user.id, query.search?.trim() || null, query.limit ?? SWITCHER_LIMIT, query.offset ?? 0);
    return {
      data: rows.map((r) => ({
        id: r.id,
        title: r.title,
        url: r.url,
        favicon: r.favicon,
        can_edit_project: decide(user, { id: r.id, deleted: false, ownerId: r.owner_id, accessLevel: r.access_level, widget: false }).edit,
      })),
      total,
    };
  }

  async sameUrl(query: { url: string; limit?: number; offset?: number }): Promise<SameUrlProjects> {
    const url = parseSiteUrl(query.url);
    if (!url) throw new BadRequestException(SITE_URL_TEXTS.invalid);
    const limit = query.limit ?? SAME_URL_PAGE;
    const offset = query.offset ?? 0;
    const { rows, total } = await this.projects.sameUrl(cleanUrl(url), limit, offset);
    return {
      data: rows.map((r) => ({
        id: r.id,
        project_id: r.id,
        title: r.title,
        url: r.url,
        favicon: r.favicon,
        inRating: r.in_rating,
        in_rating: r.in_rating,
        created: r.created_at.toISOString(),
      })),
      total,
      limit,
      offset,
      originUrl: query.url,
    };
  }

  async metadata(user: Principal, address: string): Promise<SiteMetadata> {
    await this.limiter.consume(`metadata:${user.id}`, 30, 60_000, TOO_MANY_REQUESTS);
    try {
      const page = await this.fetcher.get(address, PAGE_LIMITS);
      if (page.status >= 400) throw new FetchRefused(`status ${page.status}`);
      return { title: pageTitle(decodePage(page.body, page.contentType)) };
    } catch (error) {
      if (error instanceof FetchRefused) throw new BadRequestException(UNREACHABLE);
      throw error;
    }
  }

  async code(rights: ProjectRights, query: CounterCodeQueryDto): Promise<CounterCode> {
    const settings = counterSettings(await this.mustGet(rights.id));
    const useBlock = query.use_block_analytics ?? settings.use_block_analytics;
    return {
      code: counterCode(this.settings, rights.id, {
        trackHashes: query.track_hashes ?? settings.track_hashes,
        trackUserId: query.track_user_id ?? settings.track_user_id,
        blockAttribute: useBlock ? settings.block_analytics_attribute : null,
        widget: query.widget ?? settings.counter_type === 1,
      }),
    };
  }

  async widget(rights: ProjectRights): Promise<string> {
    const row = await this.mustGet(rights.id);
    return widgetSvg(counterSettings(row).color, await this.metrics.todayViews(row.id));
  }

  private async mustGet(id: number): Promise<ProjectRow> {
    const row = await this.projects.get(id);
    // The guard found it a moment ago; gone now means deleted in between.
    if (!row) throw new BadRequestException('the project no longer exists');
    return row;
  }
}

/** The fields the request named, nothing else: a partial save keeps the rest. */
function settingsPatch(dto: CounterSettingsDto): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(dto)) if (value !== undefined && key !== 'title') patch[key] = value;
  return patch;
}

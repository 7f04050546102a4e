/**
 * Projects (sites) and their counter settings (spec 000 §2, §3): the sites list, a project, the
 * switcher, the create flow and the counter's code. The api answers and checks them; the web app
 * reads and sends them.
 */
import type { ProjectCategory, RatingForm, RatingPlace, RatingStatus } from './rating.js';

/** The five metrics of a sites-list row (spec 000 §2.3). */
export const LIST_METRICS = ['page_views', 'visits', 'visitors', 'events', 'depth'] as const;
export type ListMetric = (typeof LIST_METRICS)[number];

/** A metric of a list row: today so far against the same hours of yesterday. */
export interface DayMetric {
  readonly today: number;
  readonly yesterday: number;
  /** Signed percent with one decimal; null when yesterday was 0. */
  readonly change: number | null;
}

/** A project's list metrics. */
export type ProjectMetrics = Readonly<Record<ListMetric, DayMetric>>;

/** One row of `GET /api/report/v1.0/project/list`. */
export interface ProjectListRow {
  readonly id: number;
  readonly title: string;
  readonly url: string;
  readonly favicon: string | null;
  /** `deleted` for a deleted project, whatever its rating status was */
  readonly status: RatingStatus;
  readonly counter_is_set: boolean;
  readonly can_edit_project: boolean;
  readonly in_rating: boolean;
  /** Whether the site may join the rating (spec 000 §6); the list offers «Участвовать» only then. */
  readonly can_be_in_rate: boolean;
  readonly deleted: boolean;
  readonly has_access_requests: boolean;
  /** null when the metrics could not be read */
  readonly metrics: ProjectMetrics | null;
  /** today's page views and visitors again, under the names of the original list */
  readonly views: number;
  readonly views_change: number | null;
  readonly visitors: number;
  readonly visitors_change: number | null;
  /** the site's categories with positions, when the list was asked `use_rating` */
  readonly categories: readonly RatingPlace[];
}

/** `GET /api/report/v1.0/project/list`. */
export interface ProjectList {
  readonly data: readonly ProjectListRow[];
  readonly meta: { readonly total_rows: number; readonly deleted_rows: number; readonly limit: number; readonly offset: number };
}

/** `counter_settings` of a project (spec 000 §3). */
export interface CounterSettings {
  /** the badge's colour, #RRGGBB */
  readonly color: string;
  /** 0: the counter without a badge, 1: with the badge */
  readonly counter_type: number;
  readonly merge_subdomains: boolean;
  readonly merge_www: boolean;
  readonly track_hashes: boolean;
  readonly track_user_id: boolean;
  readonly use_block_analytics: boolean;
  /** the data attribute that marks a block, without `data-` */
  readonly block_analytics_attribute: string;
  readonly use_whitelist: boolean;
  readonly whitelisted_urls: readonly string[];
  readonly blacklisted_urls: readonly string[];
  /** the project's title */
  readonly title: string;
}

/** `counter_settings` of a project that never saved any (specification 000, §3 form defaults). */
export const DEFAULT_COUNTER_SETTINGS: Omit<CounterSettings, 'title'> = {
  color: '#313EFB',
  counter_type: 0,
  merge_subdomains: false,
  merge_www: true,
  track_hashes: false,
  track_user_id: false,
  use_block_analytics: false,
  block_analytics_attribute: 'your-attribute',
  use_whitelist: false,
  whitelisted_urls: [],
  blacklisted_urls: [],
};

/** A user with access, as `GET /project/{id}` lists them to those who may edit it. */
export interface ProjectUser {
  /** 0 edits, 1 views */
  readonly access_level: number;
  readonly user: { readonly email: string };
}

/** `GET /project/{id}` (and the answer of `PUT`). */
export interface Project {
  readonly id: number;
  readonly title: string;
  readonly url: string;
  /** the host without a leading www: the key of «projects with the same url» */
  readonly cleanedUrl: string;
  readonly favicon: string | null;
  readonly keywords: string;
  readonly tags: readonly string[];
  readonly types: readonly number[];
  readonly regions: readonly number[];
  readonly categories: readonly ProjectCategory[];
  readonly counter_settings: CounterSettings;
  readonly rating_blockers: { readonly ununique: boolean; readonly blacklisted: boolean };
  /** the reports the project has: every report, and the media reports' key when they have data */
  readonly available_reports: readonly string[];
  readonly deleted: boolean;
  readonly can_edit_project: boolean;
  readonly can_be_in_rate: boolean;
  readonly counter_is_set: boolean;
  readonly in_rating: boolean;
  readonly public_stats: boolean;
  /** `deleted` for a deleted project, whatever its rating status was */
  readonly status: RatingStatus;
  /** empty for those who may only view */
  readonly users: readonly ProjectUser[];
  readonly permissions: { readonly can_edit_project: boolean };
  /** ISO 8601 */
  readonly created: string;
  readonly views: number;
  readonly views_change: number | null;
  readonly visitors: number;
  readonly visitors_change: number | null;
  readonly metrics: ProjectMetrics | null;
}

/** `PUT /project/{id}` from the settings page: the title, counter settings, or both; what is left out is kept. */
export interface ProjectSettingsUpdate {
  readonly title?: string;
  readonly counter_settings?: Partial<CounterSettings>;
}

/** `PUT /project/{id}`: the settings, or the rating form (spec 000 §4); every field optional, never both. */
export interface ProjectUpdate extends ProjectSettingsUpdate, Partial<Omit<RatingForm, 'title'>> {}

/** A row of the switcher (`GET /user/current/projects`). */
export interface LinkedProject {
  readonly id: number;
  readonly title: string;
  readonly url: string;
  readonly favicon: string | null;
  readonly can_edit_project: boolean;
}

/** `GET /user/current/projects`. */
export interface LinkedProjects {
  readonly data: readonly LinkedProject[];
  readonly total: number;
}

/** A project with the same url (create flow, step 3). */
export interface SameUrlProject {
  readonly id: number;
  /** the id again, as the original names it */
  readonly project_id: number;
  readonly title: string;
  readonly url: string;
  readonly favicon: string | null;
  /** in_rating again, as the original names it */
  readonly inRating: boolean;
  readonly in_rating: boolean;
  /** ISO 8601 */
  readonly created: string;
}

/** `GET /project/projects_with_same_url`. */
export interface SameUrlProjects {
  readonly data: readonly SameUrlProject[];
  readonly total: number;
  readonly limit: number;
  readonly offset: number;
  /** the address asked */
  readonly originUrl: string;
}

/**
 * The self-hosted captcha, a proof of work: find a nonce such that sha256(challenge + ":" + nonce)
 * starts with `difficulty` zero bits.
 */
export interface CaptchaChallenge {
  readonly challenge: string;
  readonly difficulty: number;
}

/** `GET /project/is_captcha_needed`. */
export interface CaptchaNeed {
  readonly need_captcha: boolean;
  readonly captcha?: CaptchaChallenge;
}

/** `POST /project`: the create form. */
export interface CreateProjectBody {
  readonly url: string;
  readonly title: string;
  /** the terms are accepted; must be true */
  readonly agree: boolean;
  /** the proof of work's nonce, when a captcha is needed */
  readonly captcha_response?: string;
}

/** The answer of `POST /project`. */
export interface CreatedProject {
  readonly project_id: number;
  readonly can_be_in_rate: boolean;
}

/** `GET /project/fetch_metadata`: the page's title, to propose as the site's name. */
export interface SiteMetadata {
  readonly title: string;
}

/** The options of `GET /project/{id}/counter_code`; one left out is the project's setting. */
export interface CounterCodeOptions {
  readonly track_hashes?: boolean;
  readonly track_user_id?: boolean;
  readonly use_block_analytics?: boolean;
  /** the code of the counter with the badge */
  readonly widget?: boolean;
}

/** `GET /project/{id}/counter_code`. */
export interface CounterCode {
  /** the HTML to paste into the site's pages */
  readonly code: string;
}

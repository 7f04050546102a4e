/**
 * The api's calls for accounts, sites, access and rating (api/API.md), typed. Screens call these,
 * never `fetch`. Shapes are the api's; comments name what the screens rely on.
 */
import type { CounterCheck } from '@stat/schemas/site';
import type { DemoState, EventbaseLatency } from '@stat/schemas/period';
import type { ExportLink, ExportLinkRequest } from '@stat/schemas/export';
import type { HintState } from '@stat/schemas/hints';
import type {
  AttributionModel,
  AttributionWindow,
  Conversion,
  ConversionAccess,
  ConversionsReport,
  ConversionList,
  ConversionMetric,
  ConversionTable,
  ConversionTableDimension,
  ConversionTableMetric,
  ConversionWidget,
  ConversionWidgetDimension,
  ConversionWidgetResult,
} from '@stat/schemas/conversions';
import { apiDelete, apiDownload, apiGet, apiPatch, apiPost, apiPut, query, type DownloadedFile, type RequestOptions } from '../lib/api';

/** Role ids (spec 000 §3). */
export const ROLE = { ADMIN: 1, SUPPORT: 2, ANALYST: 3, MANAGER: 4, COUNTER_OWNER: 5, COUNTER_READONLY: 6, USER: 7 } as const;

/** `GET /user/current`. */
export interface CurrentUser {
  readonly login: string;
  readonly id: number;
  readonly email: string;
  readonly user_name: string;
  readonly auth_type: string;
  readonly is_top100_staff: boolean;
  readonly role_permissions: readonly string[];
  readonly role_id: number;
  readonly snackbars: Readonly<Record<string, unknown>>;
  readonly metaTips: Readonly<Record<string, boolean>>;
  /** The report hints the user hid (spec 001 §2), kept on the server. */
  readonly hints: HintState;
}

/** A metric of a list row: today so far against the same hours of yesterday. */
export interface DayMetric {
  readonly today: number;
  readonly yesterday: number;
  /** Signed percent with one decimal; null when yesterday was 0. */
  readonly change: number | null;
}

/** The five metrics of a list row. */
export type ListMetricName = 'page_views' | 'visits' | 'visitors' | 'events' | 'depth';

/** A project's category in the rating, with its position. */
export interface RatingCategory {
  readonly id: number;
  readonly title: string;
  readonly position: number | null;
  readonly parent_title?: string | null;
}

/** Rating statuses (spec 000 §4). */
export type RatingStatus = 'default' | 'included' | 'moderation' | 'editing' | 'excluded' | 'unincluded' | 'need_change' | 'deleted' | 'dropped_out';

/** One row of `GET /api/report/v1.0/project/list`. */
export interface ProjectListRow {
  readonly id: number;
  readonly title: string;
  readonly url: string;
  readonly favicon: string | null;
  readonly status: RatingStatus | string;
  readonly counter_is_set: boolean;
  readonly can_edit_project: boolean;
  readonly in_rating: boolean;
  readonly deleted: boolean;
  readonly has_access_requests: boolean;
  /** Whether the site may join the rating; absent means it may (spec 000 §3 default true). */
  readonly can_be_in_rate?: boolean;
  readonly metrics: Readonly<Record<ListMetricName, DayMetric>> | null;
  readonly categories: readonly RatingCategory[];
}

/** `GET /api/report/v1.0/project/list`. */
export interface ProjectList {
  readonly data: readonly ProjectListRow[];
  readonly meta: { readonly total_rows: number; readonly deleted_rows: number; readonly limit: number; readonly offset: number };
}

/** Query of the list (spec 000 §3 "List request state"). */
export interface ProjectListQuery {
  readonly deleted: boolean;
  readonly expanded: boolean;
  readonly search: string;
  readonly offset: number;
  readonly limit: number;
}

/** `counter_settings` of a project. */
export interface CounterSettings {
  readonly color: string;
  readonly counter_type: number;
  readonly merge_subdomains: boolean;
  readonly merge_www: boolean;
  readonly track_hashes: boolean;
  readonly track_user_id: boolean;
  readonly use_block_analytics: boolean;
  readonly block_analytics_attribute: string;
  readonly use_whitelist: boolean;
  readonly whitelisted_urls: readonly string[];
  readonly blacklisted_urls: readonly string[];
  readonly title: string;
}

/** `GET /project/{id}`. */
export interface Project {
  readonly id: number;
  readonly title: string;
  readonly url: string;
  readonly cleanedUrl: string;
  readonly favicon: string | null;
  readonly keywords: string;
  readonly types: readonly number[];
  readonly regions: readonly number[];
  readonly categories: readonly RatingCategory[];
  readonly counter_settings: CounterSettings;
  readonly rating_blockers: { readonly ununique: boolean; readonly blacklisted: boolean };
  readonly available_reports: readonly string[];
  readonly deleted: boolean;
  readonly can_edit_project: boolean;
  readonly can_be_in_rate: boolean;
  readonly counter_is_set: boolean;
  readonly in_rating: boolean;
  readonly public_stats: boolean;
  readonly status: RatingStatus | string;
  readonly users: readonly { readonly access_level: number; readonly user: { readonly email: string } }[];
  readonly permissions: { readonly can_edit_project: boolean };
  readonly created: string;
}

/** A row of the switcher (`GET /user/current/projects`). */
export interface LinkedProject {
  readonly id: number;
  readonly title: string;
  readonly url: string;
  readonly favicon: string | null;
  readonly can_edit_project: boolean;
}

/** A project with the same url (create flow, step 3). */
export interface SameUrlProject {
  readonly id: number;
  readonly project_id: number;
  readonly title: string;
  readonly url: string;
  readonly favicon: string | null;
  readonly in_rating: boolean;
  readonly created: string;
}

/** `GET /project/is_captcha_needed`. */
export interface CaptchaNeed {
  readonly need_captcha: boolean;
  readonly captcha?: { readonly challenge: string; readonly difficulty: number };
}

/** A user with access to a project. */
export interface AccessUser {
  readonly email: string;
  /** 0 edit, 1 view. */
  readonly access_level: number;
  readonly can_edit_project: boolean;
  readonly is_owner?: boolean;
  readonly is_current_user?: boolean;
}

/** A pending access request. */
export interface AccessRequest {
  readonly access_request_id: number;
  readonly project_id: number;
  readonly email: string;
  readonly created: string;
}

/** A node of a rating dictionary (themes, types, regions). */
export interface TreeNode {
  readonly id: number;
  readonly parent_id: number | null;
  readonly title: string;
  readonly can_be_expanded: boolean;
}

/** `GET /api/project/config`. */
export interface RatingConfig {
  readonly categories: readonly TreeNode[];
  readonly types: readonly TreeNode[];
  readonly regions: readonly TreeNode[];
}

/** The rating form as PUT sends it. */
export interface RatingForm {
  readonly title: string;
  readonly in_rating: boolean;
  readonly keywords: string;
  readonly public_stats: boolean;
  readonly categories: readonly number[];
  readonly regions: readonly number[];
  readonly types: readonly number[];
}

const id = (projectId: number | string) => encodeURIComponent(String(projectId));

export const calls = {
  /** The logged-in user; undefined (204) when nobody is. */
  currentUser: (options?: RequestOptions) => apiGet<CurrentUser | undefined>('/api/v1.0/user/current', options),
  login: (email: string, password: string) =>
    apiPost<CurrentUser>('/api/v1.0/auth/login', { email, password }, { noRefresh: true }),
  register: (email: string, password: string, userName: string) =>
    apiPost<CurrentUser>('/api/v1.0/auth/register', userName ? { email, password, user_name: userName } : { email, password }, { noRefresh: true }),
  logout: () => apiPost<void>('/logout', undefined, { noRefresh: true }),
  updateProfile: (userName: string) => apiPut<CurrentUser>('/api/v1.0/user/current', { user_name: userName }),
  saveHints: (hints: HintState) => apiPut<CurrentUser>('/api/v1.0/user/current/hints', hints),
  changePassword: (current: string, next: string) =>
    apiPost<CurrentUser>('/api/v1.0/user/current/password', { current_password: current, new_password: next }),
  logoutAll: () => apiPost<void>('/api/v1.0/user/current/logout_all', undefined),

  projectList: (q: ProjectListQuery, options?: RequestOptions) =>
    apiGet<ProjectList>(
      `/api/report/v1.0/project/list${query({ deleted: q.deleted, expanded: q.expanded || undefined, use_rating: true, offset: q.offset, limit: q.limit, search: q.search })}`,
      options,
    ),
  linkedProjects: (search: string, options?: RequestOptions) =>
    apiGet<{ data: LinkedProject[]; total: number }>(`/api/v1.0/user/current/projects${query({ limit: 100, search })}`, options),
  project: (projectId: number | string, options?: RequestOptions) => apiGet<Project>(`/api/v1.0/project/${id(projectId)}`, options),
  /** The first and last day the project has data (spec 001 §4, the date modal). */
  /** Whether the demo project is still being filled (`GET demo/state`). */
  demoState: () => apiGet<DemoState>('/api/v1.0/demo/state'),
  dataSpan: (projectId: number | string) => apiGet<EventbaseLatency>(`/api/report/v1.0/service/eventbase_latency/${id(projectId)}`),
  updateProject: (projectId: number | string, body: { title?: string; counter_settings?: Partial<CounterSettings> } | RatingForm) =>
    apiPut<Project>(`/api/v1.0/project/${id(projectId)}`, body),
  deleteProject: (projectId: number | string) => apiDelete<Record<string, never>>(`/api/v1.0/project/${id(projectId)}`),
  restoreProject: (projectId: number | string) => apiPost<void>(`/api/v1.0/project/${id(projectId)}/restore`, undefined),
  counterCode: (
    projectId: number | string,
    options: { track_hashes: boolean; track_user_id: boolean; use_block_analytics: boolean; widget: boolean },
    request?: RequestOptions,
  ) => apiGet<{ code: string }>(`/api/v1.0/project/${id(projectId)}/counter_code${query(options)}`, request),

  exportLink: (projectId: number | string, body: ExportLinkRequest) => apiPost<ExportLink>(`/api/v1.0/${id(projectId)}/export/link`, body),
  counterCheck: (projectId: number | string) => apiGet<CounterCheck>(`/api/v1.0/project/${id(projectId)}/counter_check`),

  captchaNeeded: () => apiGet<CaptchaNeed>('/api/v1.0/project/is_captcha_needed'),
  fetchMetadata: (url: string, options?: RequestOptions) =>
    apiGet<{ title: string }>(`/api/v1.0/project/fetch_metadata${query({ url })}`, options),
  sameUrl: (url: string, offset: number, options?: RequestOptions) =>
    apiGet<{ data: SameUrlProject[]; total: number; limit: number; offset: number }>(
      `/api/v1.0/project/projects_with_same_url${query({ url, limit: 15, offset })}`,
      options,
    ),
  createProject: (body: { url: string; title: string; agree: boolean; captcha_response?: string }) =>
    apiPost<{ project_id: number; can_be_in_rate: boolean }>('/api/v1.0/project', body),
  verifyOwnership: (projectId: number | string) =>
    apiPost<{ verified: boolean; meta_tag: string }>(`/api/v1.0/project/${id(projectId)}/verify_ownership`, undefined),

  accessUsers: (projectId: number | string, options?: RequestOptions) =>
    apiGet<{ users: AccessUser[] }>(`/api/v1.0/project/${id(projectId)}/access`, options),
  saveAccess: (projectId: number | string, users: readonly { email: string; access_level: number; can_edit_project: boolean }[]) =>
    apiPatch<{ users: AccessUser[] }>(`/api/v1.0/project/${id(projectId)}/access`, { data: { users } }),
  userExists: (email: string) => apiPost<{ exists: boolean }>('/api/v1.0/user/exists', { email }),
  accessRequests: (projectId: number | string, options?: RequestOptions) =>
    apiGet<{ data: AccessRequest[]; total: number }>(`/api/v1.0/user/current/access_requests_list/${id(projectId)}`, options),
  requestAccess: (projectId: number | string) => apiPost<void>(`/api/v1.0/project/${id(projectId)}/access_request`, undefined),
  decideAccessRequest: (
    projectId: number | string,
    requestId: number,
    body: { action_request: 'access' | 'decline'; access_level?: number; can_edit_project?: boolean },
  ) => apiPost<Record<string, never>>(`/api/v1.0/project/${id(projectId)}/access_request/${requestId}`, body),

  ratingConfig: (options?: RequestOptions) => apiGet<RatingConfig>('/api/project/config', options),

  conversions: (projectId: number | string, q: { search: string; showCommon: boolean; limit: number; offset: number }, options?: RequestOptions) =>
    apiGet<ConversionList>(
      `/api/v1.0/user/conversions${query({ project_id: String(projectId), search: q.search.trim() || undefined, show_common: q.showCommon, limit: q.limit, offset: q.offset })}`,
      options,
    ),
  conversion: (conversionId: number | string, options?: RequestOptions) => apiGet<Conversion>(`/api/v1.0/conversion/${id(conversionId)}`, options),
  createConversion: (body: ConversionBody & { project_id: number }) => apiPost<Conversion>('/api/v1.0/conversion', body),
  updateConversion: (conversionId: number, body: Partial<ConversionBody>) => apiPut<Conversion>(`/api/v1.0/conversion/${conversionId}`, body),
  deleteConversion: (conversionId: number) => apiDelete<Record<string, never>>(`/api/v1.0/conversion/${conversionId}`),
  conversionFigures: (projectId: number | string, body: { date_start: string; date_end: string; conversion_ids?: number[]; sample?: number }, options?: RequestOptions) =>
    apiPost<ConversionsReport>(`/api/report/v1.0/eventbase/${id(projectId)}/conversions`, body, options),
  conversionTable: (projectId: number | string, body: ConversionTableRequest, options?: RequestOptions) =>
    apiPost<ConversionTable>(`/api/report/v1.0/eventbase/${id(projectId)}/conversion_table`, body, options),
  /** The whole table as a CSV file (§7 "Conversion CSV"). */
  conversionCsv: (projectId: number | string, body: ConversionTableRequest, options?: RequestOptions): Promise<DownloadedFile> =>
    apiDownload(`/api/report/v1.0/eventbase/${id(projectId)}/conversion_table/csv`, body, options),
  conversionWidget: (projectId: number | string, widget: ConversionWidget, body: ConversionWidgetRequest, options?: RequestOptions) =>
    apiPost<ConversionWidgetResult>(`/api/report/v1.0/eventbase/${id(projectId)}/conversion_widget/eventbase_conversion_${widget}`, body, options),
};

/** What the conversion form sends (spec 002 §3). */
export interface ConversionBody {
  readonly title: string;
  readonly description: string;
  readonly metric: ConversionMetric;
  readonly numerator_goal_id: number;
  readonly denominator_goal_id: number | null;
  readonly access: ConversionAccess;
  readonly attribution: AttributionModel;
  readonly attribution_window: AttributionWindow;
  readonly is_favorite: boolean;
}

/** What `…/conversion_table` and the widgets' calls share. */
interface ConversionBreakdownRequest {
  readonly conversion_id: number;
  readonly date_start: string;
  readonly date_end: string;
  readonly attribution?: AttributionModel;
  readonly attribution_window?: AttributionWindow;
  /** share of visitors read, (0, 1] (missing: 1) */
  readonly sample?: number;
}

/** `POST …/conversion_table` (and its CSV). */
export interface ConversionTableRequest extends ConversionBreakdownRequest {
  readonly dimensions?: readonly ConversionTableDimension[];
  readonly sort?: { readonly name: ConversionTableDimension | ConversionTableMetric; readonly order: 'asc' | 'desc' };
  readonly limit?: number;
  readonly offset?: number;
}

/** `POST …/conversion_widget/eventbase_conversion_{widget}`. */
export interface ConversionWidgetRequest extends ConversionBreakdownRequest {
  readonly dimension?: ConversionWidgetDimension;
}

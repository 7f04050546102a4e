/**
 * The api's calls for accounts, sites, access and rating (api/API.md), typed. Screens call these,
 * never `fetch`. The shapes of accounts, sites, access and rating are schemas' (what the api
 * answers and checks); what is declared here is the app's own (the list's request state) and the
 * conversions' request bodies.
 */
import type { CounterCheck } from '@stat/schemas/site';
import type { DemoState, EventbaseLatency } from '@stat/schemas/period';
import type { ExportLink, ExportLinkRequest } from '@stat/schemas/export';
import type { CurrentUser, LoginBody, PasswordChangeBody, ProfileBody, RegisterBody } from '@stat/schemas/accounts';
import type { AccessDecision, AccessGrant, AccessRequests, AccessUpdate, AccessUsers, OwnershipCheck, UserExists, UserExistsBody } from '@stat/schemas/access';
import type { HintState } from '@stat/schemas/hints';
import type {
  CaptchaNeed,
  CounterCode,
  CounterCodeOptions,
  CreatedProject,
  CreateProjectBody,
  LinkedProjects,
  Project,
  ProjectList,
  ProjectSettingsUpdate,
  SameUrlProjects,
  SiteMetadata,
} from '@stat/schemas/projects';
import type { RatingConfig, RatingForm } from '@stat/schemas/rating';
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

/** Query of the list (spec 000 §3 "List request state"). */
export interface ProjectListQuery {
  readonly deleted: boolean;
  readonly expanded: boolean;
  readonly search: string;
  readonly offset: number;
  readonly limit: number;
}

const id = (projectId: number | string) => encodeURIComponent(String(projectId));

export const calls = {
  /** The logged-in user; undefined (204) when nobody is. */
  currentUser: (options?: RequestOptions) => apiGet<CurrentUser | undefined>('/api/v1.0/user/current', options),
  login: (email: string, password: string) =>
    apiPost<CurrentUser>('/api/v1.0/auth/login', { email, password } satisfies LoginBody, { noRefresh: true }),
  register: (email: string, password: string, userName: string) =>
    apiPost<CurrentUser>('/api/v1.0/auth/register', (userName ? { email, password, user_name: userName } : { email, password }) satisfies RegisterBody, { noRefresh: true }),
  logout: () => apiPost<void>('/logout', undefined, { noRefresh: true }),
  updateProfile: (userName: string) => apiPut<CurrentUser>('/api/v1.0/user/current', { user_name: userName } satisfies ProfileBody),
  saveHints: (hints: HintState) => apiPut<CurrentUser>('/api/v1.0/user/current/hints', hints),
  changePassword: (current: string, next: string) =>
    apiPost<CurrentUser>('/api/v1.0/user/current/password', { current_password: current, new_password: next } satisfies PasswordChangeBody),
  logoutAll: () => apiPost<void>('/api/v1.0/user/current/logout_all', undefined),

  projectList: (q: ProjectListQuery, options?: RequestOptions) =>
    apiGet<ProjectList>(
      `/api/report/v1.0/project/list${query({ deleted: q.deleted, expanded: q.expanded || undefined, use_rating: true, offset: q.offset, limit: q.limit, search: q.search })}`,
      options,
    ),
  linkedProjects: (search: string, options?: RequestOptions) =>
    apiGet<LinkedProjects>(`/api/v1.0/user/current/projects${query({ limit: 100, search })}`, options),
  project: (projectId: number | string, options?: RequestOptions) => apiGet<Project>(`/api/v1.0/project/${id(projectId)}`, options),
  /** The first and last day the project has data (spec 001 §4, the date modal). */
  /** Whether the demo project is still being filled (`GET demo/state`). */
  demoState: () => apiGet<DemoState>('/api/v1.0/demo/state'),
  dataSpan: (projectId: number | string) => apiGet<EventbaseLatency>(`/api/report/v1.0/service/eventbase_latency/${id(projectId)}`),
  updateProject: (projectId: number | string, body: ProjectSettingsUpdate | RatingForm) =>
    apiPut<Project>(`/api/v1.0/project/${id(projectId)}`, body),
  deleteProject: (projectId: number | string) => apiDelete<Record<string, never>>(`/api/v1.0/project/${id(projectId)}`),
  restoreProject: (projectId: number | string) => apiPost<void>(`/api/v1.0/project/${id(projectId)}/restore`, undefined),
  counterCode: (
    projectId: number | string,
    options: Required<CounterCodeOptions>,
    request?: RequestOptions,
  ) => apiGet<CounterCode>(`/api/v1.0/project/${id(projectId)}/counter_code${query(options)}`, request),

  exportLink: (projectId: number | string, body: ExportLinkRequest) => apiPost<ExportLink>(`/api/v1.0/${id(projectId)}/export/link`, body),
  counterCheck: (projectId: number | string) => apiGet<CounterCheck>(`/api/v1.0/project/${id(projectId)}/counter_check`),

  captchaNeeded: () => apiGet<CaptchaNeed>('/api/v1.0/project/is_captcha_needed'),
  fetchMetadata: (url: string, options?: RequestOptions) =>
    apiGet<SiteMetadata>(`/api/v1.0/project/fetch_metadata${query({ url })}`, options),
  sameUrl: (url: string, offset: number, options?: RequestOptions) =>
    apiGet<SameUrlProjects>(
      `/api/v1.0/project/projects_with_same_url${query({ url, limit: 15, offset })}`,
      options,
    ),
  createProject: (body: CreateProjectBody) => apiPost<CreatedProject>('/api/v1.0/project', body),
  verifyOwnership: (projectId: number | string) =>
    apiPost<OwnershipCheck>(`/api/v1.0/project/${id(projectId)}/verify_ownership`, undefined),

  accessUsers: (projectId: number | string, options?: RequestOptions) =>
    apiGet<AccessUsers>(`/api/v1.0/project/${id(projectId)}/access`, options),
  saveAccess: (projectId: number | string, users: readonly AccessGrant[]) =>
    apiPatch<AccessUsers>(`/api/v1.0/project/${id(projectId)}/access`, { data: { users } } satisfies AccessUpdate),
  userExists: (email: string) => apiPost<UserExists>('/api/v1.0/user/exists', { email } satisfies UserExistsBody),
  accessRequests: (projectId: number | string, options?: RequestOptions) =>
    apiGet<AccessRequests>(`/api/v1.0/user/current/access_requests_list/${id(projectId)}`, options),
  requestAccess: (projectId: number | string) => apiPost<void>(`/api/v1.0/project/${id(projectId)}/access_request`, undefined),
  decideAccessRequest: (
    projectId: number | string,
    requestId: number,
    body: AccessDecision,
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

import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { RequestMethod } from '@nestjs/common';
import { describe, expect, it } from 'vitest';
import { CONTROLLERS } from '../app.module.js';
import { ApiClient, type Answer } from '../testing/client.js';
import { newUser, snapshot } from '../testing/fixtures.js';
import type { TestApi } from '../testing/harness.js';
import { DEMO_PROJECT_ID } from './project-access.js';

/** Who calls. view, edit and owner hold those rights on the target project (none on the demo one). */
const ROLES = ['anonymous', 'none', 'view', 'edit', 'owner', 'staff', 'admin'] as const;
type Role = (typeof ROLES)[number];
/** Expected statuses in the order of ROLES, e.g. '401 403 200 200 200 200 200'. */
type Row = string;

interface Target {
  id: number;
  /** a pending access request on the project, by a user who is none of the roles */
  requestId: number;
  /** a shared saved filter on the project, by a user who is none of the roles (or its owner) */
  filterId: number;
  /** a public goal on the project, by a user who is none of the roles (or its owner) */
  goalId: number;
  /** a funnel of two steps of that goal, by the same user */
  funnelId: number;
  /** a public conversion of that goal, by the owner (the demo's: by a user who is none of the roles) */
  conversionId: number;
}

interface Entry {
  /** METHOD and the route as the controllers declare it */
  route: string;
  /** the concrete call on a target project (project-scoped routes) or none */
  call: (target: Target | null) => { path: string; body?: unknown };
  /** on a fresh project of the owner, shared with view (level 1) and edit (level 0) */
  project?: Row;
  /** on the demo project */
  demo?: Row;
  /** for routes not scoped to a project */
  global?: Row;
  /** the call ends every login of its caller: it runs on a login of its own */
  ownLogin?: boolean;
  /**
   * what a forged project id answers: by default the path's projectId text; a pattern for a
   * project_id of a query or a body; null when the call names no project (a goal's id)
   */
  forged?: RegExp | null;
  /** the statuses on an unknown project, where not 404 for everyone (a login demanded first) */
  unknown?: Row;
  /** make the fresh project deleted first, or set its rating status */
  setup?: { deleted?: boolean; status?: string };
}

const TODAY = new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 10);
const REPORT = { date_start: TODAY, date_end: TODAY, group: 'hour', metrics: ['page_views'] };
const RATING = { date_start: TODAY, date_end: TODAY, group: 'day' };
const EXPORT = { date_start: TODAY, date_end: TODAY, limit: 10, fields: ['event_class'] };
const GOAL = { title: 'Цель проверки доступа', body: { dimension_filters: [{ key: 'event_type', op: '=', value: 'outbound' }] } };
const funnelBody = (t: Target | null) => ({ title: 'Воронка проверки доступа', steps: [{ step_title: 'Первый', goals: [t?.goalId] }, { step_title: 'Второй', goals: [t?.goalId] }] });
const CONSTRUCTOR = { ...REPORT, dimensions: ['traffic_type'] };
const TEMPLATE = { title: 'Отчёт проверки доступа', body: { metrics: ['page_views'], dimensions: ['traffic_type'], viewType: 'table' }, days_in_range: 0 };
/** No template has this id: every logged-in caller gets 404, as for another user's template. */
const NO_TEMPLATE = 2_000_000_000;
const SAVED_FILTER = { title: 'Шаблон проверки доступа', body: { dimension_filters: [{ key: 'url', op: '=', value: '/' }] } };

/**
 * The authorization table: every route of the api, every kind of caller, the answer each gets.
 * A route missing here fails the first test, so a new route needs a decision in this table.
 */
const TABLE: Entry[] = [
  // Project-scoped: rights decided by the one guard.
  { route: 'GET /api/v1.0/project/:projectId', call: (t) => ({ path: `/api/v1.0/project/${t?.id}` }),
    project: '401 403 200 200 200 200 200', demo: '200 200 200 200 200 200 200' },
  { route: 'PUT /api/v1.0/project/:projectId', call: (t) => ({ path: `/api/v1.0/project/${t?.id}`, body: { counter_settings: { track_hashes: true } } }),
    project: '401 403 403 200 200 403 200', demo: '401 403 403 403 403 403 200' },
  { route: 'DELETE /api/v1.0/project/:projectId', call: (t) => ({ path: `/api/v1.0/project/${t?.id}` }),
    project: '401 403 403 200 200 403 200', demo: '401 403 403 403 403 403 400' },
  { route: 'POST /api/v1.0/project/:projectId/restore', call: (t) => ({ path: `/api/v1.0/project/${t?.id}/restore` }), setup: { deleted: true },
    project: '401 403 403 204 204 403 204', demo: '401 403 403 403 403 403 204' },
  { route: 'GET /api/v1.0/project/:projectId/counter_code', call: (t) => ({ path: `/api/v1.0/project/${t?.id}/counter_code` }),
    project: '401 403 200 200 200 200 200', demo: '200 200 200 200 200 200 200' },
  { route: 'GET /api/v1.0/project/:projectId/counter_check', call: (t) => ({ path: `/api/v1.0/project/${t?.id}/counter_check` }),
    project: '401 403 403 200 200 403 200', demo: '401 403 403 403 403 403 200' },
  { route: 'GET /api/v1.0/project/:projectId/widget.svg', call: (t) => ({ path: `/api/v1.0/project/${t?.id}/widget.svg` }),
    project: '401 403 200 200 200 200 200', demo: '200 200 200 200 200 200 200' },
  { route: 'GET /api/v1.0/project/:projectId/access', call: (t) => ({ path: `/api/v1.0/project/${t?.id}/access` }),
    project: '401 403 403 200 200 403 200', demo: '401 403 403 403 403 403 200' },
  // The body keeps the shares as they are, so an editor's own entry is unchanged.
  { route: 'PATCH /api/v1.0/project/:projectId/access', call: (t) => ({ path: `/api/v1.0/project/${t?.id}/access`, body: { data: { users: t && t.id === DEMO_PROJECT_ID ? [] : SHARES() } } }),
    project: '401 403 403 200 200 403 200', demo: '401 403 403 403 403 403 200' },
  // Anyone logged in may ask; those who already have access are told so.
  { route: 'POST /api/v1.0/project/:projectId/access_request', call: (t) => ({ path: `/api/v1.0/project/${t?.id}/access_request` }),
    project: '401 204 400 400 400 204 204', demo: '401 204 204 204 204 204 204' },
  { route: 'GET /api/v1.0/user/current/access_requests_list/:projectId', call: (t) => ({ path: `/api/v1.0/user/current/access_requests_list/${t?.id}` }),
    project: '401 403 403 200 200 403 200', demo: '401 403 403 403 403 403 200' },
  { route: 'POST /api/v1.0/project/:projectId/access_request/:requestId', call: (t) => ({ path: `/api/v1.0/project/${t?.id}/access_request/${t?.requestId}`, body: { action_request: 'decline' } }),
    project: '401 403 403 200 200 403 200', demo: '401 403 403 403 403 403 200' },
  { route: 'POST /api/v1.0/project/:projectId/verify_ownership', call: (t) => ({ path: `/api/v1.0/project/${t?.id}/verify_ownership` }),
    project: '401 200 200 200 200 200 200', demo: '401 200 200 200 200 200 200' },
  { route: 'POST /api/v1.0/rating/moderation/:projectId', call: (t) => ({ path: `/api/v1.0/rating/moderation/${t?.id}`, body: { action: 'approve' } }), setup: { status: 'moderation' },
    project: '401 403 403 403 403 403 200', demo: '401 403 403 403 403 403 400' },
  { route: 'POST /api/report/v1.0/report/:projectId/:reportName/graph', call: (t) => ({ path: `/api/report/v1.0/report/${t?.id}/summary/graph`, body: REPORT }),
    project: '401 403 200 200 200 200 200', demo: '200 200 200 200 200 200 200' },
  { route: 'POST /api/report/v1.0/report/:projectId/:reportName/table', call: (t) => ({ path: `/api/report/v1.0/report/${t?.id}/summary/table`, body: REPORT }),
    project: '401 403 200 200 200 200 200', demo: '200 200 200 200 200 200 200' },
  // The CSV needs a login (§2: the button is for a user with an e-mail), on the demo project too.
  { route: 'POST /api/report/v1.0/report/:projectId/:reportName/csv', call: (t) => ({ path: `/api/report/v1.0/report/${t?.id}/summary/csv`, body: REPORT }),
    project: '401 403 200 200 200 200 200', demo: '401 200 200 200 200 200 200' },
  // The rating report: a site's viewers see the rating of its categories (none here: an empty answer).
  { route: 'POST /api/report/v1.0/report/:projectId/rating/graph', call: (t) => ({ path: `/api/report/v1.0/report/${t?.id}/rating/graph`, body: RATING }),
    project: '401 403 200 200 200 200 200', demo: '200 200 200 200 200 200 200' },
  { route: 'POST /api/report/v1.0/report/:projectId/rating/table', call: (t) => ({ path: `/api/report/v1.0/report/${t?.id}/rating/table`, body: RATING }),
    project: '401 403 200 200 200 200 200', demo: '200 200 200 200 200 200 200' },
  { route: 'POST /api/report/v1.0/report/:projectId/rating/csv', call: (t) => ({ path: `/api/report/v1.0/report/${t?.id}/rating/csv`, body: RATING }),
    project: '401 403 200 200 200 200 200', demo: '401 200 200 200 200 200 200' },
  { route: 'POST /api/report/v1.0/eventbase/:projectId/filter/events', call: (t) => ({ path: `/api/report/v1.0/eventbase/${t?.id}/filter/events`, body: {} }),
    project: '401 403 200 200 200 200 200', demo: '200 200 200 200 200 200 200' },
  { route: 'POST /api/report/v1.0/eventbase/:projectId/filter/:filterName', call: (t) => ({ path: `/api/report/v1.0/eventbase/${t?.id}/filter/traffic_type`, body: {} }),
    project: '401 403 200 200 200 200 200', demo: '200 200 200 200 200 200 200' },
  { route: 'POST /api/report/v1.0/eventbase/:projectId/realtime', call: (t) => ({ path: `/api/report/v1.0/eventbase/${t?.id}/realtime`, body: { date_start: 'today', date_end: 'today', group: 'minute', period: 30 } }),
    project: '401 403 200 200 200 200 200', demo: '200 200 200 200 200 200 200' },
  { route: 'GET /api/report/v1.0/service/eventbase_latency/:projectId', call: (t) => ({ path: `/api/report/v1.0/service/eventbase_latency/${t?.id}` }),
    project: '401 403 200 200 200 200 200', demo: '200 200 200 200 200 200 200' },
  // The constructor: as the report calls.
  { route: 'POST /api/report/v1.0/eventbase/:projectId/constructor', call: (t) => ({ path: `/api/report/v1.0/eventbase/${t?.id}/constructor`, body: CONSTRUCTOR }),
    project: '401 403 200 200 200 200 200', demo: '200 200 200 200 200 200 200' },
  { route: 'POST /api/report/v1.0/eventbase/:projectId/constructor/csv', call: (t) => ({ path: `/api/report/v1.0/eventbase/${t?.id}/constructor/csv`, body: CONSTRUCTOR }),
    project: '401 403 200 200 200 200 200', demo: '401 200 200 200 200 200 200' },
  // Saved filters: anyone logged in who views the project; on the demo project only those who
  // may edit it (administrators).
  { route: 'GET /api/v1.0/project/:projectId/saved_filters', call: (t) => ({ path: `/api/v1.0/project/${t?.id}/saved_filters` }),
    project: '401 403 200 200 200 200 200', demo: '401 403 403 403 403 403 200' },
  { route: 'POST /api/v1.0/project/:projectId/saved_filters', call: (t) => ({ path: `/api/v1.0/project/${t?.id}/saved_filters`, body: SAVED_FILTER }),
    project: '401 403 200 200 200 200 200', demo: '401 403 403 403 403 403 200' },
  { route: 'PUT /api/v1.0/project/:projectId/saved_filters/:filterId', call: (t) => ({ path: `/api/v1.0/project/${t?.id}/saved_filters/${t?.filterId}`, body: { title: `Переименован ${t?.filterId}` } }),
    project: '401 403 200 200 200 200 200', demo: '401 403 403 403 403 403 200' },
  { route: 'DELETE /api/v1.0/project/:projectId/saved_filters/:filterId', call: (t) => ({ path: `/api/v1.0/project/${t?.id}/saved_filters/${t?.filterId}` }),
    project: '401 403 200 200 200 200 200', demo: '401 403 403 403 403 403 200' },
  // The data export: staff and can_read_dev_reports only (analysts hold it); the file by its address alone.
  { route: 'POST /api/v1.0/:projectId/export/link', call: (t) => ({ path: `/api/v1.0/${t?.id}/export/link`, body: EXPORT }),
    project: '401 403 403 403 403 200 200', demo: '401 403 403 403 403 200 200' },
  { route: 'GET /api/v1.0/export/:file', call: () => ({ path: '/api/v1.0/export/no-such-address-of-32-characters.csv' }), global: '404 404 404 404 404 404 404' },
  // Goals: the project is named in the query or the body, or is the goal's. Lists for whoever
  // views the project (the demo's for anyone); creating for a login that views it, on the demo
  // project for administrators; a public goal is changed by its creator and the project's
  // editors (specification 002, §5).
  { route: 'GET /api/v1.0/user/goals', call: (t) => ({ path: `/api/v1.0/user/goals?project_id=${t?.id}&show_common=true` }), forged: /project_id/,
    project: '401 403 200 200 200 200 200', demo: '200 200 200 200 200 200 200' },
  { route: 'POST /api/v1.0/goals', call: (t) => ({ path: '/api/v1.0/goals', body: { project_id: t?.id, ids: [t?.goalId] } }), forged: /project_id/,
    project: '401 403 200 200 200 200 200', demo: '401 200 200 200 200 200 200', unknown: '401 404 404 404 404 404 404' },
  { route: 'POST /api/v1.0/goal', call: (t) => ({ path: '/api/v1.0/goal', body: { project_id: t?.id, ...GOAL } }), forged: /project_id/,
    project: '401 403 200 200 200 200 200', demo: '401 403 403 403 403 403 200', unknown: '401 404 404 404 404 404 404' },
  { route: 'PUT /api/v1.0/goal/:id', call: (t) => ({ path: `/api/v1.0/goal/${t?.goalId}`, body: { title: `Переименована ${t?.goalId}` } }), forged: null,
    project: '401 403 403 200 200 403 200', demo: '401 403 403 403 403 403 200', unknown: '401 404 404 404 404 404 404' },
  // Deleted by its creator (here: the owner); on the demo project by an administrator, whoever made it.
  { route: 'DELETE /api/v1.0/goal/:id', call: (t) => ({ path: `/api/v1.0/goal/${t?.goalId}` }), forged: null,
    project: '401 403 403 403 200 403 403', demo: '401 403 403 403 403 403 200', unknown: '401 404 404 404 404 404 404' },
  // The goals' counts: a report call for whoever views the project and sees the goals (the demo's for anyone).
  { route: 'POST /api/report/v1.0/eventbase/:projectId/goals', call: (t) => ({ path: `/api/report/v1.0/eventbase/${t?.id}/goals`, body: { goal_ids: [t?.goalId], date_start: TODAY, date_end: TODAY } }),
    project: '401 403 200 200 200 200 200', demo: '200 200 200 200 200 200 200' },
  { route: 'GET /api/v1.0/autogoals', call: (t) => ({ path: `/api/v1.0/autogoals?project_id=${t?.id}` }), forged: /project_id/,
    project: '401 403 200 200 200 200 200', demo: '200 200 200 200 200 200 200' },
  // Funnels: public on their project; created by a login that views it, changed and deleted by
  // their author or the project's editors; on the demo project by administrators.
  { route: 'GET /api/v1.0/:projectId/funnels', call: (t) => ({ path: `/api/v1.0/${t?.id}/funnels` }),
    project: '401 403 200 200 200 200 200', demo: '200 200 200 200 200 200 200' },
  { route: 'GET /api/v1.0/:projectId/funnel/:id', call: (t) => ({ path: `/api/v1.0/${t?.id}/funnel/${t?.funnelId}` }),
    project: '401 403 200 200 200 200 200', demo: '200 200 200 200 200 200 200' },
  { route: 'POST /api/v1.0/:projectId/funnel', call: (t) => ({ path: `/api/v1.0/${t?.id}/funnel`, body: funnelBody(t) }),
    project: '401 403 200 200 200 200 200', demo: '401 403 403 403 403 403 200' },
  { route: 'PUT /api/v1.0/:projectId/funnel/:id', call: (t) => ({ path: `/api/v1.0/${t?.id}/funnel/${t?.funnelId}`, body: funnelBody(t) }),
    project: '401 403 403 200 200 403 200', demo: '401 403 403 403 403 403 200' },
  { route: 'DELETE /api/v1.0/:projectId/funnel/:id', call: (t) => ({ path: `/api/v1.0/${t?.id}/funnel/${t?.funnelId}` }),
    project: '401 403 403 200 200 403 200', demo: '401 403 403 403 403 403 200' },
  // Conversions: as goals (public ones seen by whoever views the project, the demo's by anyone);
  // changed by their creator or the project's editors, deleted by the creator only (§5).
  { route: 'GET /api/v1.0/user/conversions', call: (t) => ({ path: `/api/v1.0/user/conversions?project_id=${t?.id}` }), forged: /project_id/,
    project: '401 403 200 200 200 200 200', demo: '200 200 200 200 200 200 200' },
  { route: 'POST /api/v1.0/conversion', call: (t) => ({ path: '/api/v1.0/conversion', body: { project_id: t?.id, title: 'Конверсия проверки', numerator_goal_id: t?.goalId } }), forged: /project_id/,
    project: '401 403 200 200 200 200 200', demo: '401 403 403 403 403 403 200', unknown: '401 404 404 404 404 404 404' },
  { route: 'GET /api/v1.0/conversion/:id', call: (t) => ({ path: `/api/v1.0/conversion/${t?.conversionId}` }), forged: null,
    project: '401 403 200 200 200 200 200', demo: '401 200 200 200 200 200 200', unknown: '401 404 404 404 404 404 404' },
  { route: 'PUT /api/v1.0/conversion/:id', call: (t) => ({ path: `/api/v1.0/conversion/${t?.conversionId}`, body: { title: `Переименована ${t?.conversionId}` } }), forged: null,
    project: '401 403 403 200 200 403 200', demo: '401 403 403 403 403 403 200', unknown: '401 404 404 404 404 404 404' },
  { route: 'DELETE /api/v1.0/conversion/:id', call: (t) => ({ path: `/api/v1.0/conversion/${t?.conversionId}` }), forged: null,
    project: '401 403 403 403 200 403 403', demo: '401 403 403 403 403 403 403', unknown: '401 404 404 404 404 404 404' },
  { route: 'POST /api/report/v1.0/eventbase/:projectId/conversions', call: (t) => ({ path: `/api/report/v1.0/eventbase/${t?.id}/conversions`, body: { date_start: TODAY, date_end: TODAY } }),
    project: '401 403 200 200 200 200 200', demo: '200 200 200 200 200 200 200' },
  { route: 'POST /api/report/v1.0/eventbase/:projectId/conversion_table', call: (t) => ({ path: `/api/report/v1.0/eventbase/${t?.id}/conversion_table`, body: { conversion_id: t?.conversionId, date_start: TODAY, date_end: TODAY } }),
    project: '401 403 200 200 200 200 200', demo: '200 200 200 200 200 200 200' },
  { route: 'POST /api/report/v1.0/eventbase/:projectId/conversion_table/csv', call: (t) => ({ path: `/api/report/v1.0/eventbase/${t?.id}/conversion_table/csv`, body: { conversion_id: t?.conversionId, date_start: TODAY, date_end: TODAY } }),
    project: '401 403 200 200 200 200 200', demo: '401 200 200 200 200 200 200' },
  { route: 'POST /api/report/v1.0/eventbase/:projectId/conversion_widget/:widget', call: (t) => ({ path: `/api/report/v1.0/eventbase/${t?.id}/conversion_widget/eventbase_conversion_technology`, body: { conversion_id: t?.conversionId, date_start: TODAY, date_end: TODAY } }),
    project: '401 403 200 200 200 200 200', demo: '200 200 200 200 200 200 200' },
  { route: 'POST /api/report/v1.0/eventbase/:projectId/funnel', call: (t) => ({ path: `/api/report/v1.0/eventbase/${t?.id}/funnel`, body: { funnel_id: t?.funnelId, date_start: TODAY, date_end: TODAY } }),
    project: '401 403 200 200 200 200 200', demo: '200 200 200 200 200 200 200' },
  { route: 'POST /api/report/v1.0/eventbase/:projectId/funnel/csv', call: (t) => ({ path: `/api/report/v1.0/eventbase/${t?.id}/funnel/csv`, body: { funnel_id: t?.funnelId, date_start: TODAY, date_end: TODAY } }),
    project: '401 403 200 200 200 200 200', demo: '401 200 200 200 200 200 200' },
  // Not scoped to a project.
  // Constructor templates: each user's own; another's (here: none of that id) is 404 to everyone, administrators too.
  { route: 'GET /api/v1.0/user/constructor_templates', call: () => ({ path: '/api/v1.0/user/constructor_templates' }), global: '401 200 200 200 200 200 200' },
  { route: 'POST /api/v1.0/constructor_template', call: () => ({ path: '/api/v1.0/constructor_template', body: TEMPLATE }), global: '401 200 200 200 200 200 200' },
  { route: 'GET /api/v1.0/constructor_template/:id', call: () => ({ path: `/api/v1.0/constructor_template/${NO_TEMPLATE}` }), global: '401 404 404 404 404 404 404' },
  { route: 'PUT /api/v1.0/constructor_template/:id', call: () => ({ path: `/api/v1.0/constructor_template/${NO_TEMPLATE}`, body: { title: 'Переименован' } }), global: '401 404 404 404 404 404 404' },
  { route: 'DELETE /api/v1.0/constructor_template/:id', call: () => ({ path: `/api/v1.0/constructor_template/${NO_TEMPLATE}` }), global: '401 404 404 404 404 404 404' },
  { route: 'GET /api/v1.0/user/current', call: () => ({ path: '/api/v1.0/user/current' }), global: '204 200 200 200 200 200 200' },
  { route: 'GET /api/v1.0/user/current/projects', call: () => ({ path: '/api/v1.0/user/current/projects' }), global: '401 200 200 200 200 200 200' },
  { route: 'POST /api/v1.0/user/exists', call: () => ({ path: '/api/v1.0/user/exists', body: { email: 'someone@example.com' } }), global: '401 200 200 200 200 200 200' },
  { route: 'GET /api/v1.0/user/current/access_requests_list', call: () => ({ path: '/api/v1.0/user/current/access_requests_list' }), global: '401 200 200 200 200 200 200' },
  { route: 'GET /api/report/v1.0/project/list', call: () => ({ path: '/api/report/v1.0/project/list?expanded=true' }), global: '401 200 200 200 200 200 200' },
  { route: 'GET /api/v1.0/project/is_captcha_needed', call: () => ({ path: '/api/v1.0/project/is_captcha_needed' }), global: '401 200 200 200 200 200 200' },
  // Nothing resolves in the tests: a logged-in caller gets «Адрес недоступен».
  { route: 'GET /api/v1.0/project/fetch_metadata', call: () => ({ path: '/api/v1.0/project/fetch_metadata?url=https%3A%2F%2Fnowhere.example' }), global: '401 400 400 400 400 400 400' },
  { route: 'GET /api/v1.0/project/projects_with_same_url', call: () => ({ path: '/api/v1.0/project/projects_with_same_url?url=https%3A%2F%2Fsame.example' }), global: '401 200 200 200 200 200 200' },
  { route: 'POST /api/v1.0/project', call: () => ({ path: '/api/v1.0/project', body: { url: 'https://new-site.example', title: 'Новый сайт', agree: true } }), global: '401 200 200 200 200 200 200' },
  { route: 'GET /api/v1.0/rating/moderation', call: () => ({ path: '/api/v1.0/rating/moderation' }), global: '401 403 403 403 403 403 200' },
  { route: 'POST /api/v1.0/rating/recompute', call: () => ({ path: '/api/v1.0/rating/recompute' }), global: '401 403 403 403 403 403 200' },
  { route: 'GET /api/project/config', call: () => ({ path: '/api/project/config' }), global: '200 200 200 200 200 200 200' },
  { route: 'GET /api/v1.0/category', call: () => ({ path: '/api/v1.0/category' }), global: '200 200 200 200 200 200 200' },
  { route: 'GET /api/v1.0/type', call: () => ({ path: '/api/v1.0/type' }), global: '200 200 200 200 200 200 200' },
  { route: 'GET /api/v1.0/region', call: () => ({ path: '/api/v1.0/region' }), global: '200 200 200 200 200 200 200' },
  { route: 'GET /api/v1.0/rating/catalogue', call: () => ({ path: '/api/v1.0/rating/catalogue?category_id=1' }), global: '200 200 200 200 200 200 200' },
  { route: 'GET /api/report/v1.0/ch_geo', call: () => ({ path: '/api/report/v1.0/ch_geo?geo_ids=2017370' }), global: '200 200 200 200 200 200 200' },
  { route: 'GET /api/report/v1.0/service/time', call: () => ({ path: '/api/report/v1.0/service/time' }), global: '200 200 200 200 200 200 200' },
  { route: 'GET /api/report/v1.0/service/eventbase_latency', call: () => ({ path: '/api/report/v1.0/service/eventbase_latency' }), global: '200 200 200 200 200 200 200' },
  { route: 'GET /api/v1.0/demo/state', call: () => ({ path: '/api/v1.0/demo/state' }), global: '200 200 200 200 200 200 200' },
  { route: 'GET /api/report/v1.0/ch_segments', call: () => ({ path: '/api/report/v1.0/ch_segments?segment_ids=1' }), global: '200 200 200 200 200 200 200' },
  // Accounts: open to anyone; the answers depend on the credentials, not on who calls.
  { route: 'POST /api/v1.0/auth/login', call: () => ({ path: '/api/v1.0/auth/login', body: { email: 'nobody@example.com', password: 'wrong password' } }), global: '401 401 401 401 401 401 401' },
  { route: 'POST /api/v1.0/auth/register', call: () => ({ path: '/api/v1.0/auth/register', body: { email: 'not an e-mail', password: 'long enough' } }), global: '400 400 400 400 400 400 400' },
  { route: 'PUT /api/v1.0/user/current', call: () => ({ path: '/api/v1.0/user/current', body: { user_name: 'Проверка доступа' } }), global: '401 200 200 200 200 200 200' },
  { route: 'PUT /api/v1.0/user/current/hints', call: () => ({ path: '/api/v1.0/user/current/hints', body: { all: false, reports: ['geo'], tips: ['reportCsv'], views: 1 } }), global: '401 200 200 200 200 200 200' },
  // A wrong current password: the answer says so to whoever is logged in, and nothing changes.
  { route: 'POST /api/v1.0/user/current/password', call: () => ({ path: '/api/v1.0/user/current/password', body: { current_password: 'not the password', new_password: 'a new password' } }),
    global: '401 400 400 400 400 400 400' },
  { route: 'POST /api/v1.0/auth/refresh', call: () => ({ path: '/api/v1.0/auth/refresh' }), global: '401 204 204 204 204 204 204' },
  { route: 'POST /logout', call: () => ({ path: '/logout' }), global: '204 204 204 204 204 204 204' },
  { route: 'POST /api/v1.0/user/current/logout_all', call: () => ({ path: '/api/v1.0/user/current/logout_all' }), global: '401 204 204 204 204 204 204', ownLogin: true },
];

let SHARES: () => { email: string; access_level: number }[] = () => [];

function parse(row: Row): Record<Role, number> {
  const statuses = row.split(' ').map(Number);
  return Object.fromEntries(ROLES.map((role, i) => [role, statuses[i]])) as Record<Role, number>;
}

/** Every route the controllers declare, as `METHOD /path`. */
function declaredRoutes(): string[] {
  const routes: string[] = [];
  for (const controller of CONTROLLERS) {
    const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
    for (const name of Object.getOwnPropertyNames(controller.prototype)) {
      const handler = (controller.prototype as Record<string, unknown>)[name];
      if (typeof handler !== 'function' || name === 'constructor') continue;
      const path = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (path === undefined || method === undefined) continue;
      const full = `/${[base, path].filter((p) => p && p !== '/').join('/')}`.replace(/\/+/g, '/');
      routes.push(`${RequestMethod[method]} ${full}`);
    }
  }
  return routes.sort();
}

/** The authorization of every route for every kind of caller (task part 5). */
export function authzSuite(env: () => TestApi): void {
  describe('authorization of every route', () => {
    const clients = {} as Record<Role, ApiClient>;
    const ids = {} as Record<Role, number>;
    const loginEmail = {} as Record<Role, string>;
    let requester = 0;

    it('the table has exactly the routes the controllers declare', () => {
      expect(TABLE.map((e) => e.route).sort()).toEqual(declaredRoutes());
    });

    it('sets up the callers', async () => {
      clients.anonymous = new ApiClient(env().url);
      for (const role of ROLES.slice(1)) {
        const user = await newUser(env(), role === 'staff' ? 3 : role === 'admin' ? 1 : undefined);
        clients[role] = user.client;
        ids[role] = user.id;
        loginEmail[role] = user.email;
      }
      requester = (await newUser(env())).id;
      const emails = await env().db.query<{ id: number; email: string }>('SELECT id, email FROM users WHERE id = ANY($1::bigint[])', [[ids.view, ids.edit]]);
      const email = (id: number) => emails.find((e) => e.id === id)?.email ?? '';
      SHARES = () => [
        { email: email(ids.view), access_level: 1 },
        { email: email(ids.edit), access_level: 0 },
      ];
    });

    /** A fresh project of the owner, shared with view and edit, with one pending access request. */
    async function freshProject(setup: Entry['setup'] = {}): Promise<Target> {
      const db = env().db;
      const [row] = await db.query<{ id: number }>(
        `INSERT INTO projects (title, url, cleaned_url, owner_id, deleted_at, rating_status)
         VALUES ('Чужой сайт', 'https://authz.example', 'authz.example', $1, $2, $3) RETURNING id`,
        [ids.owner, setup.deleted ? new Date() : null, setup.status ?? 'unincluded'],
      );
      const id = row!.id;
      await db.query('INSERT INTO project_access (project_id, user_id, access_level) VALUES ($1, $2, 1), ($1, $3, 0)', [id, ids.view, ids.edit]);
      const [request] = await db.query<{ id: number }>('INSERT INTO access_requests (project_id, user_id) VALUES ($1, $2) RETURNING id', [id, requester]);
      const goalId = await publicGoal(id, ids.owner);
      return { id, requestId: request!.id, filterId: await sharedFilter(id, ids.owner), goalId, funnelId: await funnelOf(id, ids.owner, goalId), conversionId: await conversionOf(id, ids.owner, goalId) };
    }

    let filters = 0;
    /** A shared saved filter on the project, of a title no other one there has. */
    async function sharedFilter(projectId: number, authorId: number): Promise<number> {
      filters += 1;
      const [row] = await env().db.query<{ id: number }>(
        `INSERT INTO saved_filters (project_id, author_id, title, type, body) VALUES ($1, $2, $3, 'shared', $4::jsonb) RETURNING id`,
        [projectId, authorId, `Общий шаблон ${filters}`, JSON.stringify(SAVED_FILTER.body)],
      );
      return row!.id;
    }

    /** A public goal on the project. */
    async function publicGoal(projectId: number, ownerId: number): Promise<number> {
      const [row] = await env().db.query<{ id: number }>(
        `INSERT INTO goals (project_id, owner_id, title, access, body) VALUES ($1, $2, 'Общая цель', 'common', $3::jsonb) RETURNING id`,
        [projectId, ownerId, JSON.stringify(GOAL.body)],
      );
      return row!.id;
    }

    /** A funnel of two steps of one goal. */
    async function funnelOf(projectId: number, authorId: number, goalId: number): Promise<number> {
      const [row] = await env().db.query<{ id: number }>(`INSERT INTO funnels (project_id, author_id, title) VALUES ($1, $2, 'Воронка') RETURNING id`, [projectId, authorId]);
      await env().db.query(`INSERT INTO funnel_steps (funnel_id, step_number, step_title, goal_ids) VALUES ($1, 1, 'Первый', $2::bigint[]), ($1, 2, 'Второй', $2::bigint[])`, [row!.id, [goalId]]);
      return row!.id;
    }

    /** A public conversion of a goal, over all visits. */
    async function conversionOf(projectId: number, ownerId: number, goalId: number): Promise<number> {
      const [row] = await env().db.query<{ id: number }>(
        `INSERT INTO conversions (project_id, owner_id, title, metric, numerator_goal_id, access) VALUES ($1, $2, 'Общая конверсия', 'visits', $3, 'common') RETURNING id`,
        [projectId, ownerId, goalId],
      );
      return row!.id;
    }

    async function demoTarget(): Promise<Target> {
      const [request] = await env().db.query<{ id: number }>(
        `INSERT INTO access_requests (project_id, user_id) VALUES ($1, $2)
         ON CONFLICT (project_id, user_id) WHERE status = 'pending' DO UPDATE SET created_at = access_requests.created_at RETURNING id`,
        [DEMO_PROJECT_ID, requester],
      );
      const goalId = await publicGoal(DEMO_PROJECT_ID, requester);
      return { id: DEMO_PROJECT_ID, requestId: request!.id, filterId: await sharedFilter(DEMO_PROJECT_ID, requester), goalId, funnelId: await funnelOf(DEMO_PROJECT_ID, requester, goalId), conversionId: await conversionOf(DEMO_PROJECT_ID, requester, goalId) };
    }

    async function check(entry: Entry, role: Role, target: Target | null, expected: number): Promise<void> {
      const { path, body } = entry.call(target);
      const method = entry.route.split(' ')[0] as string;
      // logout and refresh would end or change the session the next checks use: a copy calls.
      const client = clients[role];
      const caller = new ApiClient(client.baseUrl, client.prefix, client.address);
      if (entry.ownLogin && role !== 'anonymous') await caller.login(loginEmail[role]);
      else for (const [k, v] of client.cookies) caller.cookies.set(k, v);
      const before = expected >= 400 ? await snapshot(env().db) : '';
      const answer: Answer = await caller.call(method, path, body);
      expect(answer.status, `${entry.route} as ${role} on ${target?.id ?? '-'}: ${JSON.stringify(answer.json)}`).toBe(expected);
      if (expected >= 400) {
        expect(answer.json.responseStatus).toBe(expected);
        expect(typeof answer.json.errors.message).toBe('string');
        expect(await snapshot(env().db), `${entry.route} as ${role} changed the database`).toBe(before);
      }
    }

    for (const entry of TABLE) {
      if (entry.project) {
        const expected = parse(entry.project);
        it(`${entry.route} on a project: ${entry.project}`, async () => {
          for (const role of ROLES) await check(entry, role, await freshProject(entry.setup), expected[role]);
        });
        it(`${entry.route} on an unknown project: 404 for everyone; forged ids 400`, async () => {
          const unknown = entry.unknown ? parse(entry.unknown) : null;
          for (const role of ['anonymous', 'owner', 'admin'] as const) {
            await check(entry, role, { id: 2_147_483_647, requestId: 1, filterId: 1, goalId: 2_147_483_647, funnelId: 1, conversionId: 2_147_483_647 }, unknown?.[role] ?? 404);
          }
          if (entry.forged === null) return;
          for (const forged of ['0', 'abc', '99999999999', '-1', '1e3', '2147483648', '4294967295']) {
            const { path, body } = entry.call({ id: forged as unknown as number, requestId: 1, filterId: 1, goalId: 1, funnelId: 1, conversionId: 1 });
            const before = await snapshot(env().db);
            const answer = await clients.admin.call(entry.route.split(' ')[0] as string, path, body);
            expect(answer.status, `${path}`).toBe(400);
            if (entry.forged) expect(answer.json.errors.message).toMatch(entry.forged);
            else expect(answer.json.errors.message).toBe('projectId must be a whole number from 1 to 2147483647');
            expect(await snapshot(env().db)).toBe(before);
          }
        });
      }
      if (entry.demo) {
        const expected = parse(entry.demo);
        it(`${entry.route} on the demo project: ${entry.demo}`, async () => {
          for (const role of ROLES) await check(entry, role, await demoTarget(), expected[role]);
        });
      }
      if (entry.global) {
        const expected = parse(entry.global);
        it(`${entry.route}: ${entry.global}`, async () => {
          for (const role of ROLES) await check(entry, role, null, expected[role]);
        });
      }
    }

    it('a state-changing call without the CSRF header is 403 for everyone, and changes nothing', async () => {
      const target = await freshProject();
      for (const role of ROLES) {
        const before = await snapshot(env().db);
        const answer = await clients[role].call('DELETE', `/api/v1.0/project/${target.id}`, undefined, { csrf: false });
        expect(answer.status).toBe(403);
        expect(answer.json.errors.message).toBe('CSRF check failed: send the X-Requested-With header');
        expect(await snapshot(env().db)).toBe(before);
      }
    });

    it('a restricted role (COUNTER_READONLY) cannot create projects', async () => {
      const user = await newUser(env(), 6);
      const before = await snapshot(env().db);
      const answer = await user.client.post('/api/v1.0/project', { url: 'https://readonly.example', title: 'Сайт', agree: true });
      expect(answer.json).toEqual({ responseStatus: 403, errors: { message: 'Доступ запрещен' } });
      expect(await snapshot(env().db)).toBe(before);
    });
  });
}

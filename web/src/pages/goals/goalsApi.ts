/** The calls of the goals page (spec 002 §7): the list, create, change, delete, and the autogoals. */
import type { AutogoalList, Goal, GoalAccess, GoalBody, GoalCountsReport, GoalList } from '@stat/schemas/goals';
import { apiDelete, apiGet, apiPost, apiPut, query, type RequestOptions } from '../../lib/api';

/** What the list asks for. */
export interface GoalListQuery {
  readonly search: string;
  readonly showCommon: boolean;
  readonly limit: number;
  readonly offset: number;
}

export function listGoals(projectId: string, q: GoalListQuery, options?: RequestOptions): Promise<GoalList> {
  return apiGet(`/api/v1.0/user/goals${query({ project_id: projectId, search: q.search.trim(), show_common: q.showCommon, limit: q.limit, offset: q.offset })}`, options);
}

/** What the form sends. */
export interface GoalFormValues {
  readonly title: string;
  readonly description: string;
  readonly access: GoalAccess;
  readonly is_protected: boolean;
  readonly is_td_sending: boolean;
  readonly body: GoalBody;
}

export function createGoal(projectId: string, values: GoalFormValues, templateId: number | null): Promise<Goal> {
  const { body, ...rest } = values;
  return apiPost('/api/v1.0/goal', templateId === null ? { project_id: Number(projectId), ...rest, body } : { project_id: Number(projectId), ...rest, goal_template_id: templateId });
}

export function updateGoal(id: number, values: Partial<GoalFormValues>): Promise<Goal> {
  return apiPut(`/api/v1.0/goal/${id}`, values);
}

export function deleteGoal(id: number): Promise<Record<string, never>> {
  return apiDelete(`/api/v1.0/goal/${id}`);
}

export function listAutogoals(projectId: string, offset: number, limit: number, options?: RequestOptions): Promise<AutogoalList> {
  return apiGet(`/api/v1.0/autogoals${query({ project_id: projectId, offset, limit })}`, options);
}

/** The goals' counts over a period (dates as the report calls take them: YYYY-MM-DD, today, 7days…). */
export function goalCounts(projectId: string, goalIds: readonly number[], dateStart: string, dateEnd: string, options?: RequestOptions): Promise<GoalCountsReport> {
  return apiPost(`/api/report/v1.0/eventbase/${projectId}/goals`, { goal_ids: goalIds, date_start: dateStart, date_end: dateEnd }, options);
}

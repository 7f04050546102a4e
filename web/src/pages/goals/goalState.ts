/** The goals page's rules that need no DOM: the switch remembered per user, who may do what. */
import { DEMO_PROJECT_ID, writeRefusal, type WriteRefusal } from '../../app/project';
import { FUNNEL_TEXTS } from '@stat/schemas/funnels';
import { GOAL_RATE_LIMIT_MESSAGE, GOAL_TEXTS, GOAL_TITLE_MAX, SHOW_COMMON_GOALS_KEY, type Goal } from '@stat/schemas/goals';
import { ApiError } from '../../lib/api';
import { showCommonSwitch } from '../../app/showCommon';

/** The switch «Показать публичные целевые события» of each user. */
export const { read: readShowCommon, write: writeShowCommon } = showCommonSwitch(SHOW_COMMON_GOALS_KEY);

/** What the caller may do on the project's goals (spec 002 §5). */
export interface GoalRights {
  /** create and copy: a login, and on the demo project an administrator */
  readonly write: boolean;
  readonly demo: boolean;
  /** why `write` is false, for the disabled buttons' tooltips */
  readonly refusal: WriteRefusal | null;
}

export function goalRights(projectId: string, loggedIn: boolean, canEditProject: boolean): GoalRights {
  const refusal = writeRefusal(projectId, loggedIn, canEditProject);
  return { write: refusal === null, demo: projectId === String(DEMO_PROJECT_ID), refusal };
}

/** What a goal's row offers. */
export interface RowActions {
  readonly addConversion: boolean;
  readonly makePublic: boolean;
  readonly edit: boolean;
  readonly copy: boolean;
  readonly remove: boolean;
}

/**
 * The row actions a goal offers (§2: add conversion, make public, edit, copy, delete; §5):
 * adding a conversion and copying create, so they need the right to write; edit is hidden on
 * the demo project and for a protected goal; «make public» is the creator's, hidden on the demo
 * project and for a goal already public (a protected one may be shared: nothing it counts
 * changes); delete as the api says (its creator; on the demo project an administrator).
 */
export function rowActions(goal: Goal, rights: GoalRights, canEditProject: boolean): RowActions {
  const live = !goal.is_deleted;
  return {
    addConversion: rights.write && live,
    makePublic: rights.write && live && !rights.demo && goal.is_owner && goal.access !== 'common',
    edit: rights.write && live && !rights.demo && !goal.is_protected && (goal.is_owner || (goal.access === 'common' && canEditProject)),
    copy: rights.write,
    remove: rights.write && goal.can_delete,
  };
}

/** The title of a copy: prefixed «Копия_ » as a funnel's copy (§4), within the title's limit. */
export function copyTitle(title: string): string {
  return [...`${FUNNEL_TEXTS.copyPrefix}${title}`].slice(0, GOAL_TITLE_MAX).join('');
}

/** The text of a failed create or change: the rate limit's own, the api's message for a 4xx, else a general one. */
export function goalFailure(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 400 && error.message === GOAL_RATE_LIMIT_MESSAGE) return GOAL_TEXTS.rateLimit;
    if (error.status >= 400 && error.status < 500) return error.message;
  }
  return GOAL_TEXTS.failed;
}

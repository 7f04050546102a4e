/**
 * The report hints (spec 001 §2 "Hints"): a report's hint is shown until closed for that report,
 * or for all reports by «Закрыть все подсказки»; the meta tips (how to use the tools) stop after
 * more than three report views. Kept per user: on the server for a logged-in user (the users
 * table's `meta_tips`, written by `PUT /api/v1.0/user/current/hints`), in the browser for a visitor.
 */

/** The meta tips of §2, in the order they are offered (the user's `metaTips` of spec 000 §3). */
export const META_TIPS = ['reportFilter', 'reportGraph', 'reportSettings', 'reportViews', 'reportAdditional', 'reportCsv'] as const;
export type MetaTip = (typeof META_TIPS)[number];

/** §2: meta tips stop showing after more than 3 report views: they show on the first three. */
export const META_TIP_VIEWS = 3;

/** How many reports' hints one user can have closed (more than there are reports). */
export const HINT_REPORTS_MAX = 100;

/** A report name as a hint names it. */
export const HINT_REPORT_NAME = /^[a-z][a-z0-9_]{0,63}$/;

/** What is hidden for one user. */
export interface HintState {
  /** «Закрыть все подсказки» */
  readonly all: boolean;
  /** reports whose hint was closed */
  readonly reports: readonly string[];
  /** meta tips closed («Понятно») */
  readonly tips: readonly MetaTip[];
  /** report pages opened, for the meta tips' limit (counted up to it) */
  readonly views: number;
}

export const NO_HINTS_HIDDEN: HintState = { all: false, reports: [], tips: [], views: 0 };

const isMetaTip = (value: unknown): value is MetaTip => (META_TIPS as readonly unknown[]).includes(value);

/**
 * A hint state from anything stored (the browser's JSON, the server's `meta_tips`): what cannot
 * be read reads as nothing hidden. The server keeps the closed tips as `metaTips` booleans
 * (`{"reportCsv": true}`) beside `all`, `reports` and `views`; the browser as a `tips` list.
 */
export function hintStateOf(raw: unknown): HintState {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return NO_HINTS_HIDDEN;
  const stored = raw as Record<string, unknown>;
  const listed = Array.isArray(stored.tips) ? stored.tips.filter(isMetaTip) : [];
  const flagged = META_TIPS.filter((tip) => stored[tip] === true);
  const views = stored.views;
  return {
    all: stored.all === true,
    reports: Array.isArray(stored.reports)
      ? [...new Set(stored.reports.filter((r): r is string => typeof r === 'string' && HINT_REPORT_NAME.test(r)))].slice(0, HINT_REPORTS_MAX)
      : [],
    tips: META_TIPS.filter((tip) => listed.includes(tip) || flagged.includes(tip)),
    views: typeof views === 'number' && Number.isInteger(views) && views > 0 ? Math.min(views, META_TIP_VIEWS) : 0,
  };
}

/** The server's form of a hint state (`users.meta_tips`): the spec's `metaTips` flags and the rest. */
export function storedHints(state: HintState): Record<string, unknown> {
  return {
    ...Object.fromEntries(META_TIPS.map((tip) => [tip, state.tips.includes(tip)])),
    all: state.all,
    reports: [...state.reports],
    views: Math.min(state.views, META_TIP_VIEWS),
  };
}

/** Whether a report's own hint shows. */
export function reportHintShown(state: HintState, report: string): boolean {
  return !state.all && !state.reports.includes(report);
}

/** The meta tip a report page shows now: the first of its tips not closed, while the views allow. */
export function metaTipOf(state: HintState, offered: readonly MetaTip[]): MetaTip | null {
  // `views` are the report pages opened before this one.
  if (state.all || state.views >= META_TIP_VIEWS) return null;
  return META_TIPS.find((tip) => offered.includes(tip) && !state.tips.includes(tip)) ?? null;
}

export const closeReportHint = (state: HintState, report: string): HintState => ({ ...state, reports: [...new Set([...state.reports, report])] });
export const openReportHint = (state: HintState, report: string): HintState => ({ ...state, all: false, reports: state.reports.filter((r) => r !== report) });
export const closeAllHints = (state: HintState): HintState => ({ ...state, all: true });
export const closeMetaTip = (state: HintState, tip: MetaTip): HintState => ({ ...state, tips: [...new Set([...state.tips, tip])] });
/** One more report page opened; counted up to the tips' limit, past which the number says nothing. */
export const countView = (state: HintState): HintState => (state.views >= META_TIP_VIEWS ? state : { ...state, views: state.views + 1 });

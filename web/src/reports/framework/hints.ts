import { readStored, writeStored } from '../../lib/browser';

/**
 * The report hints (spec 001 §2 "Hints"): a report's hint is shown until closed for that report,
 * or for all reports by «Закрыть все подсказки»; the meta tips (how to use the tools) stop after
 * more than three report views. Remembered per user in this browser (storage keys below).
 */

/** The meta tips of §2, in the order they are offered. */
export const META_TIPS = ['reportFilter', 'reportGraph', 'reportSettings', 'reportViews', 'reportAdditional', 'reportCsv'] as const;
export type MetaTip = (typeof META_TIPS)[number];

/** §2: meta tips stop showing after more than 3 report views: they show on the first three. */
export const META_TIP_VIEWS = 3;

/** What a meta tip says. */
export const META_TIP_TEXTS: Record<MetaTip, string> = {
  reportFilter: 'Чтобы оставить в отчёте только нужные визиты, добавьте фильтр: по источнику, странице, устройству или географии.',
  reportGraph: 'Отметьте строки таблицы флажками, чтобы сравнить их на графике.',
  reportSettings: 'В списке «Показатели» выбираются столбцы таблицы; заголовок столбца сортирует по нему.',
  reportViews: 'Над графиком можно выбрать «1 график» или «2 графика» и вид графика: линии, столбцы, круговую диаграмму или области.',
  reportAdditional: 'Строки со стрелкой раскрываются: под ними — подробности, например поисковые системы под «Поисковыми системами».',
  reportCsv: 'Кнопка «Скачать отчёт» сохраняет таблицу в файл CSV для Excel и других программ.',
};

/** What is hidden for one user. */
export interface HintState {
  /** «Закрыть все подсказки» */
  readonly all: boolean;
  /** reports whose hint was closed */
  readonly reports: readonly string[];
  /** meta tips closed («Понятно») */
  readonly tips: readonly MetaTip[];
  /** report pages opened, for the meta tips' limit */
  readonly views: number;
}

const EMPTY: HintState = { all: false, reports: [], tips: [], views: 0 };

/** The storage key of a user's hints; one key for every visitor who is not logged in (the demo). */
export function hintKey(userId: number | null): string {
  return `reportHints:${userId ?? 'guest'}`;
}

/** A user's stored state; anything unreadable reads as nothing hidden. */
export function readHints(key: string): HintState {
  try {
    const raw = JSON.parse(readStored(key) ?? 'null') as Partial<HintState> | null;
    if (!raw || typeof raw !== 'object') return EMPTY;
    return {
      all: raw.all === true,
      reports: Array.isArray(raw.reports) ? raw.reports.filter((r): r is string => typeof r === 'string') : [],
      tips: Array.isArray(raw.tips) ? raw.tips.filter((t): t is MetaTip => (META_TIPS as readonly string[]).includes(t as string)) : [],
      views: Number.isInteger(raw.views) && (raw.views ?? 0) > 0 ? (raw.views as number) : 0,
    };
  } catch {
    return EMPTY;
  }
}

export function writeHints(key: string, state: HintState): void {
  writeStored(key, JSON.stringify(state));
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
export const countView = (state: HintState): HintState => ({ ...state, views: state.views + 1 });

/**
 * The live dashboard's decisions, as pure functions (spec 001 §4 "Real-time dashboard"): the
 * period and its grouping, when the auto-update runs, how a count steps toward a new value,
 * and where each widget's title and preset lead.
 */
import { fitGroup, resolveDate, type IsoDate, type PeriodDetail, type PeriodGroup } from '@stat/schemas/period';
import type { Metric } from '@stat/schemas/catalogue';
import { REALTIME_DEFAULT_METRICS, type RealtimeSection } from '@stat/schemas/reports';
import type { DateParam, Period } from '../../lib/period';

/** The dashboard's period: the report period, and the detail of a period of today. */
export interface DashboardPeriod extends Period {
  readonly detail: PeriodDetail;
}

/** The detail the dashboard opens with (§4: "On entry, dates reset to today with minute grouping"). */
const DEFAULT_DETAIL: PeriodDetail = 30;

/** Whether the period is today alone: the live mode. */
export const isLive = (period: Pick<Period, 'start' | 'end'>, today: IsoDate): boolean => period.start === today && period.end === today;

/**
 * Whether the period includes the present moment: it ends today (a period never ends in the
 * future). Only then does «Уникальные посетители сейчас», a count of the last 5 minutes, belong to
 * it; under «Вчера» it read «0 за последние 5 минут», a figure of another day than the page's.
 */
export const includesNow = (period: Pick<Period, 'end'>, today: IsoDate): boolean => period.end === today;

/**
 * What the dashboard's first call asks (its other widgets have their own calls). Over a period
 * that includes now: the visitors of the last minutes. Over a past one, no «now» count (it would
 * not be the period's) but the period's own unique visitors, read with the page views' graph, whose
 * totals count them exactly over the whole period (a sum of buckets would count a visitor twice).
 */
export function mainSections(now: boolean): { sections: RealtimeSection[]; widget_params?: { page_views: { metrics: Metric[] } } } {
  const all: RealtimeSection[] = ['current_user_count', 'page_views', 'active_pages', 'platforms', 'utms'];
  const sections = now ? all : all.filter((s) => s !== 'current_user_count');
  return now ? { sections } : { sections, widget_params: { page_views: { metrics: [...REALTIME_DEFAULT_METRICS.page_views, 'visitors'] } } };
}

/**
 * The group of a period and detail. Today: minute with 30 minutes (§4: "Today with 30-minute
 * detail forces minute grouping"), five minutes otherwise ("Choosing 1 hour, or anything other
 * than 30 minutes while grouped by minute, forces groupBy to five_minute"), unless the chosen
 * group fits. Other periods: the chosen group when it fits, else the period's default.
 */
export function groupFor(start: IsoDate, end: IsoDate, today: IsoDate, detail: PeriodDetail, chosen: PeriodGroup | null): PeriodGroup {
  if (start === today && end === today) {
    if (detail === 30 && (chosen === null || chosen === 'minute')) return 'minute';
    return chosen !== null && chosen !== 'minute' && fitGroup(chosen, start, end, detail) === chosen ? chosen : 'five_minute';
  }
  return fitGroup(chosen, start, end);
}

/** The period on entry: today, the last 30 minutes by minute. */
export function initialPeriod(today: IsoDate): DashboardPeriod {
  return { dateStart: 'today', dateEnd: 'today', start: today, end: today, detail: DEFAULT_DETAIL, group: groupFor(today, today, today, DEFAULT_DETAIL, null) };
}

/** Another period from the picker (relative or calendar dates); invalid ones keep today. */
export function choosePeriod(dateStart: DateParam, dateEnd: DateParam, today: IsoDate, current: DashboardPeriod): DashboardPeriod {
  const start = resolveDate(dateStart, today) ?? today;
  const end = resolveDate(dateEnd, today) ?? today;
  const [first, last] = start <= end ? [start, end] : [end, start];
  return { dateStart, dateEnd, start: first, end: last, detail: current.detail, group: groupFor(first, last, today, current.detail, null) };
}

/** Another detail of today. */
export function chooseDetail(detail: PeriodDetail, today: IsoDate, current: DashboardPeriod): DashboardPeriod {
  return { ...current, detail, group: groupFor(current.start, current.end, today, detail, detail === 30 ? 'minute' : null) };
}

/** What the auto-update depends on (§4: "active only when the period is today and runs only if on, page visible, not loading"). */
export interface AutoUpdateInputs {
  readonly live: boolean;
  readonly on: boolean;
  readonly visible: boolean;
  readonly loading: boolean;
}

/** Whether the switch can be used: today only. */
export const autoUpdateAvailable = (i: Pick<AutoUpdateInputs, 'live'>): boolean => i.live;

/** Whether the progress bar runs toward the next update now. */
export const autoUpdateRuns = (i: AutoUpdateInputs): boolean => i.live && i.on && i.visible && !i.loading;

/**
 * The next shown value of a count moving from `origin` (where the animation began) toward `to`
 * (§4: "Counts animate in steps of about 1 s divided by the distance"): one unit every
 * 1000/distance ms, so any change takes about a second; past 50 units a step is several units
 * (the distance / 50), never faster than 20 ms a step. `from` is the value shown now.
 */
export function countStep(from: number, to: number, origin: number = from): { next: number; delayMs: number } {
  if (from === to) return { next: to, delayMs: 0 };
  const distance = Math.max(Math.abs(to - origin), Math.abs(to - from));
  const size = Math.max(1, Math.ceil(distance / 50));
  const steps = Math.ceil(distance / size);
  return { next: from < to ? Math.min(to, from + size) : Math.max(to, from - size), delayMs: Math.max(20, Math.round(1000 / steps)) };
}

/** The base report each widget's title leads to (§4), with the widget's choice where it has one. */
export function reportHref(projectId: string, report: string, period: Period): string {
  const group = period.start === period.end && period.group === 'minute' ? 'five_minute' : period.group;
  const q = new URLSearchParams({ dateStart: period.dateStart, dateEnd: period.dateEnd, groupBy: group });
  return `/stat/projects/${encodeURIComponent(projectId)}/new/report/${report}?${q.toString()}`;
}

/**
 * The presets that open a widget's query in the constructor (§4 "Presets linking the live view
 * to the constructor"): today to today by five minutes, the widget's metrics and dimensions.
 */
const CONSTRUCTOR_PRESETS: Readonly<Partial<Record<RealtimeSection, { metrics: string[]; dimensions: string[]; orderBy: string }>>> = {
  page_views: { metrics: ['page_views'], dimensions: ['date'], orderBy: 'date' },
  traffic_sources: { metrics: ['visits'], dimensions: ['traffic_type'], orderBy: 'visits' },
  active_pages: { metrics: ['page_views'], dimensions: ['url_no_args'], orderBy: 'page_views' },
  audience: { metrics: ['visitors'], dimensions: ['gender', 'age_tns'], orderBy: 'visitors' },
  platforms: { metrics: ['page_views'], dimensions: ['page_format'], orderBy: 'page_views' },
  events: { metrics: ['events_count'], dimensions: ['event_class', 'event_name'], orderBy: 'events_count' },
  utms: { metrics: ['visits'], dimensions: ['utm_campaign', 'utm_content', 'utm_medium', 'utm_source', 'utm_term'], orderBy: 'visits' },
};

/** The constructor's address with a widget's preset, or null for a widget without one. */
export function constructorHref(projectId: string, section: RealtimeSection): string | null {
  const preset = CONSTRUCTOR_PRESETS[section];
  if (!preset) return null;
  const q = new URLSearchParams({
    dateStart: 'today',
    dateEnd: 'today',
    groupBy: 'five_minute',
    orderBy: `${preset.orderBy}:desc`,
    metrics: preset.metrics.join(','),
    dimensions: preset.dimensions.join(','),
  });
  return `/stat/projects/${encodeURIComponent(projectId)}/new/report/constructor?${q.toString()}`;
}

/** The events picker (§4: at most 5): the new choice after a click on `name`, unchanged when full. */
export function toggleEvent(picked: readonly string[], name: string, max: number): string[] {
  if (picked.includes(name)) return picked.filter((n) => n !== name);
  return picked.length >= max ? [...picked] : [...picked, name];
}

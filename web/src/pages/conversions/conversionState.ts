/** The conversions pages' rules that need no DOM: the form's checks, the shown value, who may do what, the switch per user. */
import {
  CONVERSION_DESCRIPTION_MAX,
  CONVERSION_METRIC_TITLES,
  CONVERSION_SAMPLE,
  CONVERSION_TOTAL_TITLE,
  CONVERSION_TEXTS,
  CONVERSION_TITLE_MAX,
  CONVERSION_TITLE_MIN,
  formatConversion,
  CONVERSION_TABLE_DIMENSIONS,
  CONVERSION_TABLE_METRICS,
  type Conversion,
  type ConversionMetric,
  type ConversionTableDimension,
  type ConversionTableMetric,
} from '@stat/schemas/conversions';
import type { Period } from '../../lib/period';
import { parseSort, validSample } from '../../reports/framework/query';
import { DEMO_PROJECT_ID, writeRefusal, type WriteRefusal } from '../../app/project';
import { ApiError } from '../../lib/api';
import { showCommonSwitch } from '../../app/showCommon';

/** Texts of the conversions pages that the schemas do not hold. */
export const CONVERSION_PAGE_TEXTS = {
  pageTitle: 'Конверсии',
  create: 'Новая конверсия',
  search: 'Поиск по названию',
  showCommon: 'Показать публичные конверсии',
  empty: 'Нет данных для отображения',
  showMore: 'Показать ещё',
  formAdd: 'Новая конверсия',
  formEdit: 'Изменение конверсии',
  fieldTitle: 'Название',
  fieldDescription: 'Описание',
  fieldMetric: 'Метрика',
  fieldNumerator: 'Целевое событие',
  fieldDenominator: 'Знаменатель',
  allVisits: 'Все визиты',
  fieldAttribution: 'Модель атрибуции',
  fieldWindow: 'Окно атрибуции',
  save: 'Сохранить',
  cancel: 'Отменить',
  created: 'Конверсия создана',
  updated: 'Конверсия изменена',
  deleted: 'Конверсия удалена',
  madePublic: 'Конверсия стала публичной',
  failed: 'Не удалось сохранить конверсию',
  makePublic: 'Сделать публичной',
  edit: 'Изменить',
  remove: 'Удалить',
  removeTitle: 'Удалить конверсию?',
  accessCommon: 'Публичная',
  accessOwn: 'Личная',
  favorite: 'В избранное',
  unfavorite: 'Убрать из избранного',
  actions: 'Действия',
  numerator: CONVERSION_METRIC_TITLES.numerator,
  denominator: CONVERSION_METRIC_TITLES.denominator,
  conversion: CONVERSION_METRIC_TITLES.conversion,
  details: 'Детализация',
  detailsLabel: 'Новое',
  source: 'Источник',
  total: CONVERSION_TOTAL_TITLE,
  csv: 'Скачать в CSV',
  settings: 'Настройка сводной таблицы',
  widgetsTitle: 'Отчёты',
} as const;

/** What each metric counts, in words (spec 002 §3 lists visits, visitors, events_count). */
export const METRIC_TITLES: Readonly<Record<ConversionMetric, string>> = {
  visits: 'Визиты',
  visitors: 'Посетители',
  events_count: 'События',
};

/** An attribution window in words: «7 дней», «21 день». */
export function windowText(days: number): string {
  const form = new Intl.PluralRules('ru-RU').select(days);
  return `${days} ${form === 'one' ? 'день' : form === 'few' ? 'дня' : 'дней'}`;
}

/** The value as shown: formatConversion and a percent sign («NA» stays as it is). */
export function conversionText(value: number | null): string {
  const text = formatConversion(value);
  return text === 'NA' ? text : `${text} %`;
}

/** What the form holds while typed. */
export interface ConversionDraft {
  readonly title: string;
  readonly description: string;
  /** '' when none is chosen */
  readonly numerator: string;
}

/** The problems of a draft by field (spec 002 §5): none means it may be sent. */
export function draftProblems(draft: ConversionDraft): { title?: string; description?: string; numerator?: string } {
  const title = [...draft.title.trim()].length;
  const problems: { title?: string; description?: string; numerator?: string } = {};
  if (title === 0) problems.title = CONVERSION_TEXTS.titleRequired;
  else if (title < CONVERSION_TITLE_MIN) problems.title = CONVERSION_TEXTS.titleTooShort;
  else if (title > CONVERSION_TITLE_MAX) problems.title = CONVERSION_TEXTS.titleTooLong;
  if ([...draft.description.trim()].length > CONVERSION_DESCRIPTION_MAX) problems.description = CONVERSION_TEXTS.descriptionTooLong;
  if (draft.numerator === '') problems.numerator = CONVERSION_TEXTS.numeratorRequired;
  return problems;
}

/** What the caller may do with the project's conversions (spec 002 §5): on the demo project only its editors write. */
export function conversionRights(projectId: string, loggedIn: boolean, canEditProject: boolean): { write: boolean; demo: boolean; refusal: WriteRefusal | null } {
  const refusal = writeRefusal(projectId, loggedIn, canEditProject);
  return { write: refusal === null, demo: projectId === String(DEMO_PROJECT_ID), refusal };
}

/** A card's actions: change by the creator or, for a public one, the project's editors; public and delete for the creator's own. */
export function cardActions(conversion: Conversion, write: boolean, canEditProject: boolean): { edit: boolean; makePublic: boolean; remove: boolean } {
  const edit = write && (conversion.is_owner || (conversion.access === 'common' && canEditProject));
  return { edit, makePublic: write && conversion.is_owner && conversion.access !== 'common', remove: write && conversion.is_owner };
}

/** The switch «Показать публичные конверсии» of each user. */
export const { read: readShowCommon, write: writeShowCommon } = showCommonSwitch('showCommonConversions');

/** The text of a failed call: the api's message for a 4xx, else a general one. */
export function conversionFailure(error: unknown): string {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return error.message;
  return CONVERSION_PAGE_TEXTS.failed;
}

/** The table's own URL parameters: its dimensions, sort and page, so a reload or a shared link shows the same table. */
/** The days a conversions page counts: the period of its «Период:» picker. */
export type DateSpan = Pick<Period, 'start' | 'end'>;

/**
 * A conversions page's address with the period shown on this one (its dateStart and dateEnd as the
 * URL keeps them, relative ones staying relative), so that the other page opens on the same days.
 */
export function withPeriod(path: string, period: Pick<Period, 'dateStart' | 'dateEnd'> | null): string {
  if (!period) return path;
  return `${path}?${new URLSearchParams({ dateStart: period.dateStart, dateEnd: period.dateEnd }).toString()}`;
}

export const TABLE_PARAMS = { dimensions: 'tableDimensions', sort: 'orderBy', offset: 'offset' } as const;

/** The URL parameter of the page's «Точность:», named as the reports name theirs. */
export const SAMPLE_PARAM = 'sample';

/** The sample the URL asks for; the conversion's default (spec 002 §9: 1) when it names none or one outside (0, 1]. */
export function readSample(value: string | null): number {
  return value !== null && validSample(value) ? Number(value) : CONVERSION_SAMPLE;
}

/** The URL with another sample: the default leaves no parameter, so a plain link and the default agree. */
export function writeSample(params: URLSearchParams, sample: number): URLSearchParams {
  const next = new URLSearchParams(params);
  if (sample === CONVERSION_SAMPLE) next.delete(SAMPLE_PARAM);
  else next.set(SAMPLE_PARAM, String(sample));
  return next;
}

/** A sort of the conversion table: by one of its dimensions or metrics. */
export interface TableSort {
  readonly name: ConversionTableDimension | ConversionTableMetric;
  readonly order: 'asc' | 'desc';
}

export const DEFAULT_TABLE_SORT: TableSort = { name: 'numerator', order: 'desc' };

/** The dimensions a URL names, in the catalogue's order; none or unknown ones: the first dimension. */
export function readDimensions(value: string | null): readonly ConversionTableDimension[] {
  const named = (value ?? '').split(',');
  const chosen = CONVERSION_TABLE_DIMENSIONS.filter((d) => named.includes(d));
  return chosen.length > 0 ? chosen : [CONVERSION_TABLE_DIMENSIONS[0]];
}

/** The sort a URL names, when it is a shown dimension or a metric; else conversions first. */
export function readSort(value: string | null, dimensions: readonly ConversionTableDimension[]): TableSort {
  const parsed = parseSort(value, [...dimensions, ...CONVERSION_TABLE_METRICS]);
  return parsed ? { name: parsed.name as TableSort['name'], order: parsed.order } : DEFAULT_TABLE_SORT;
}

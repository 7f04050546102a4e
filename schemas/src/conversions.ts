import type { Dimension } from './dimensions.js';
import { GOAL_ACCESS, GOAL_DESCRIPTION_MAX, GOAL_TITLE_MAX, GOAL_TITLE_MIN, type GoalAccess } from './goals.js';

/**
 * Conversions (spec 002, §3 "Conversion", §4, §5, §9): the share of visits, visitors or events
 * that reached a goal, of those that reached another one (or of all visits), with the traffic
 * source credited by an attribution model over a window of days. Shared by the api and the web.
 */

/** What a conversion counts; the first is the default (§3). */
export const CONVERSION_METRICS = ['visits', 'visitors', 'events_count'] as const;
export type ConversionMetric = (typeof CONVERSION_METRICS)[number];

/** §3: the attribution models and their labels. */
export const ATTRIBUTION_MODELS = ['last_click', 'first_click', 'last_valuable', 'sberads'] as const;
export type AttributionModel = (typeof ATTRIBUTION_MODELS)[number];
export const ATTRIBUTION_LABELS: Record<AttributionModel, string> = {
  last_click: 'Last click',
  first_click: 'First click',
  last_valuable: 'Last valuable click',
  sberads: 'Last click from the ad network',
};

/** §3: attribution windows, days. */
export const ATTRIBUTION_WINDOWS = [7, 14, 21, 28] as const;
export type AttributionWindow = (typeof ATTRIBUTION_WINDOWS)[number];

/** Who sees a conversion: as for a goal, `own` its creator only, `common` everyone with access to the project. */
export const CONVERSION_ACCESS = GOAL_ACCESS;
export type ConversionAccess = GoalAccess;

/** §5: the title's and the description's limits, the same as a goal's. */
export const CONVERSION_TITLE_MIN = GOAL_TITLE_MIN;
export const CONVERSION_TITLE_MAX = GOAL_TITLE_MAX;
export const CONVERSION_DESCRIPTION_MAX = GOAL_DESCRIPTION_MAX;
/** §9: the conversions report table's default rows. */
export const CONVERSION_TABLE_PAGE = 10;

export const CONVERSION_TEXTS = {
  notFound: 'Конверсия не найдена',
  goalNotFound: 'Цель не найдена',
  titleRequired: 'Поле не заполнено',
  titleTooShort: `Минимум ${CONVERSION_TITLE_MIN} символа`,
  titleTooLong: 'Превышен лимит символов',
  descriptionTooLong: 'Превышен лимит символов',
  numeratorRequired: 'Выберите цель',
} as const;

/** A conversion as the api answers it. */
export interface Conversion {
  id: number;
  project_id: number;
  title: string;
  description: string;
  metric: ConversionMetric;
  numerator_goal_id: number;
  /** null: all visits */
  denominator_goal_id: number | null;
  access: ConversionAccess;
  is_favorite: boolean;
  email: { email: string } | null;
  is_owner: boolean;
  attribution: AttributionModel;
  attribution_window: AttributionWindow;
  update_date: string;
}

export interface ConversionList {
  conversions: Conversion[];
  totals: number;
}

/** The conversion value: 100 × numerator / denominator; null when the denominator is 0. */
export function conversionValue(numerator: number, denominator: number): number | null {
  return denominator > 0 ? (100 * numerator) / denominator : null;
}

/** §3: shown with 6 decimals below 1, else 2, decimal comma. */
export function formatConversion(value: number | null): string {
  if (value === null || !Number.isFinite(value)) return 'NA';
  return value.toFixed(value < 1 ? 6 : 2).replace('.', ',');
}

/** §9 "Conversion sample default 1 (0.1 on the list)": the share of visitors a conversion's report reads unless asked otherwise. */
export const CONVERSION_SAMPLE = 1;
/** The list's cards read a tenth of the visitors (§9): many conversions at once, each a graph. */
export const CONVERSION_LIST_SAMPLE = 0.1;

/** One conversion's figures over a period: totals and a point per day. */
export interface ConversionFigures {
  id: number;
  numerator: { data: { date: string; value: number }[]; totals: number };
  denominator: { data: { date: string; value: number }[]; totals: number };
  conversion: number | null;
}

/**
 * The answer of `…/eventbase/{projectId}/conversions`. Counts read from a sample are scaled back;
 * a conversion is the ratio of the two counts as read (so scaling never moves it).
 */
export interface ConversionsReport {
  conversions: ConversionFigures[];
  /** the share of visitors read (1 for a period of today only, whatever was asked) */
  sample: number;
}

/**
 * The dimensions the table «Детализация» may be broken down by (§2 "Column names"), with their
 * column titles; the first is the default.
 */
export const CONVERSION_TABLE_DIMENSIONS = ['traffic_type', 'traffic_system', 'utm_source', 'utm_medium', 'utm_campaign', 'utm_content', 'utm_term'] as const satisfies readonly Dimension[];
export type ConversionTableDimension = (typeof CONVERSION_TABLE_DIMENSIONS)[number];

/** The three widgets of the single-conversion report (§2), as the call's `{widget}` names them. */
export const CONVERSION_WIDGETS = ['traffic_sources', 'audience', 'technology'] as const;
export type ConversionWidget = (typeof CONVERSION_WIDGETS)[number];

/** What each widget shows: its title, its tabs (the first the default), the graph it opens with. */
export const CONVERSION_WIDGET_INFO = {
  traffic_sources: { title: 'Источники трафика', dimensions: ['traffic_type'], chart: 'bar' },
  audience: { title: 'Аудитория', dimensions: ['gender', 'age_tns', 'geo_country', 'category_1'], chart: 'line' },
  technology: { title: 'Технологии', dimensions: ['counter_type_eventbase', 'device_type', 'os_family'], chart: 'line' },
} as const satisfies Record<ConversionWidget, { title: string; dimensions: readonly Dimension[]; chart: 'line' | 'bar' }>;

/** Every dimension of a widget's tabs. */
export type ConversionWidgetDimension = (typeof CONVERSION_WIDGET_INFO)[ConversionWidget]['dimensions'][number];

/** §2: the widgets' graph types; pie and area are disabled. */
export const CONVERSION_WIDGET_CHARTS = ['line', 'bar'] as const;
/** Categories (lines) a widget shows at most: the ones with the most converted units. */
export const CONVERSION_WIDGET_LINES = 5;

/** Column and tab titles of the conversion's dimensions (§2 gives the first two exactly). */
export const CONVERSION_DIMENSION_TITLES: Readonly<Record<ConversionTableDimension | ConversionWidgetDimension, string>> = {
  traffic_system: 'Источники трафика детально',
  traffic_type: 'Источники трафика',
  utm_source: 'utm_source',
  utm_medium: 'utm_medium',
  utm_campaign: 'utm_campaign',
  utm_content: 'utm_content',
  utm_term: 'utm_term',
  gender: 'Пол',
  age_tns: 'Возраст',
  geo_country: 'Страны',
  category_1: 'Интересы',
  counter_type_eventbase: 'Тип счётчика',
  device_type: 'Тип устройства',
  os_family: 'ОС',
};

/** The table's metric columns, as the body's `sort.name` names them (with a dimension of the table). */
export const CONVERSION_TABLE_METRICS = ['numerator', 'denominator', 'conversion'] as const;
export type ConversionTableMetric = (typeof CONVERSION_TABLE_METRICS)[number];
/** The metric columns' titles, as the table and its CSV head them. */
export const CONVERSION_METRIC_TITLES: Readonly<Record<ConversionTableMetric, string>> = {
  numerator: 'Целевые визиты',
  denominator: 'Визиты',
  conversion: 'Конверсия, %',
};
/** The totals row's title. */
export const CONVERSION_TOTAL_TITLE = 'Итого';
/** §2 "Настройка сводной таблицы": how many dimensions the table takes at most. */
export const CONVERSION_TABLE_MAX_DIMENSIONS = CONVERSION_TABLE_DIMENSIONS.length;

/**
 * A row of the conversion table: a combination of the asked dimensions' values (each under the
 * dimension's name, e.g. `traffic_type: 'search'`), credited by the attribution model, with the
 * values' titles («Поисковые системы», «Не определено» for an empty one).
 */
export interface ConversionTableRow {
  [dimension: string]: string | number | null | Record<string, string>;
  titles: Record<string, string>;
  numerator: number;
  denominator: number;
  conversion: number | null;
}

/** The answer of `…/conversion_table` (§7). */
export interface ConversionTable {
  dimensions: ConversionTableDimension[];
  available_dimensions: ConversionTableDimension[];
  available_metrics: ConversionTableMetric[];
  data: ConversionTableRow[];
  totals: { numerator: number; denominator: number; conversion: number | null };
  meta: {
    total: number;
    offset: number;
    limit: number;
    sort: { name: string; order: 'asc' | 'desc' };
    attribution: AttributionModel;
    attribution_window: AttributionWindow;
    /** the share of visitors read, as in {@link ConversionsReport} */
    sample: number;
  };
}

/** One category of a widget: its title, the period's figures, and a point per day. */
export interface ConversionWidgetCategory {
  title: string;
  numerator: number;
  denominator: number;
  conversion: number | null;
  points: { date: string; numerator: number; denominator: number; conversion: number | null }[];
}

/** The answer of `…/conversion_widget/eventbase_conversion_{widget}` (§7): keyed by category. */
export interface ConversionWidgetResult {
  data: Record<string, ConversionWidgetCategory>;
  meta: {
    dimensions: ConversionWidgetDimension[];
    /** the keys of `data`, most converted first */
    order: string[];
    attribution: AttributionModel;
    attribution_window: AttributionWindow;
    /** the share of visitors read, as in {@link ConversionsReport} */
    sample: number;
    /** the dimension is not collected by this service: every unit is «Не определено» */
    not_collected?: string;
  };
}

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

export const CONVERSION_ACCESS = ['own', 'common'] as const;
export type ConversionAccess = (typeof CONVERSION_ACCESS)[number];

/** §5 */
export const CONVERSION_TITLE_MIN = 3;
export const CONVERSION_TITLE_MAX = 255;
export const CONVERSION_DESCRIPTION_MAX = 500;
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

/** One conversion's figures over a period: totals and a point per day. */
export interface ConversionFigures {
  id: number;
  numerator: { data: { date: string; value: number }[]; totals: number };
  denominator: { data: { date: string; value: number }[]; totals: number };
  conversion: number | null;
}

/** A row of the conversion table: a traffic source credited by the attribution model. */
export interface ConversionTableRow {
  traffic_type: string;
  numerator: number;
  denominator: number;
  conversion: number | null;
}

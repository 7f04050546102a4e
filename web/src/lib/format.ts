/**
 * Number formatting for everything the web app shows, and the default project title (spec 001 §9 "Number format": space
 * thousands, comma decimal, suffixes млн, млрд, трлн). Every number on screen goes through here.
 *
 * Decisions:
 * - The thousands separator, and the space between a number and its suffix, is U+00A0 NO-BREAK
 *   SPACE (what ICU uses for Russian; every font has it, and a number never wraps across lines).
 *   It is exported as {@link NBSP} so tests and callers can build expected strings.
 * - The decimal separator is a comma.
 * - Negative numbers start with an ASCII hyphen-minus, so a copied value pastes as a number.
 * - Below one million a number is shown in full, with at most two fraction digits, trailing
 *   zeros trimmed: 1234.5 → «1 234,5», 999 999 → «999 999».
 * - From one million on it is scaled to млн (10⁶), млрд (10⁹) or трлн (10¹²), rounded to two
 *   fraction digits, trailing zeros trimmed: 1 234 567 → «1,23 млн», 12 000 000 → «12 млн». A value
 *   that rounds up to 1000 of a unit moves to the next unit (999 999 999 → «1 млрд»).
 * - A percent always carries exactly {@link PERCENT_DIGITS} (two) decimals, zeros kept: «20,55%»,
 *   «20,00%», «100,00%», «0,40%». Trimming zeros made «20%» stand beside «20,55%» in one column or
 *   legend, as if one share were known less exactly than the other; with one fixed width the
 *   shares line up and compare at a glance. This holds for every percent a report shows (tables,
 *   tooltips, legends, pie slices, the dashboard's widgets), whatever the screen width. Two
 *   exceptions, both not measured values: a setting's label (the sample «10%», spec «меньше 1%»)
 *   and the ticks of a value axis, which share the fewest decimals that tell them apart
 *   ({@link formatAxisTicks}: «0%», «25%», «50%» or «2,5%», «5,0%», «7,5%»).
 *   No space before the sign, as the spec's own text «меньше 1%» writes it.
 * - A missing value (null, undefined, NaN, ±Infinity) is shown as «NA» (spec: missing value 'NA').
 */

/** U+00A0 NO-BREAK SPACE: the thousands separator and the space before a unit suffix. */
export const NBSP = '\u00a0';

/** What a missing or non-finite value is shown as. */
export const MISSING_VALUE = 'NA';

/** What a project without a title is called (spec 000 §8 "Defaults: title «Нет названия»"). */
export const NO_TITLE = 'Нет названия';

/** A project's title as shown: «Нет названия» when it is empty or only spaces. */
export function projectTitle(title: string | null | undefined): string {
  return title?.trim() ? title : NO_TITLE;
}

/** Numbers whose absolute value reaches this are shown with a suffix (млн and up). */
const COMPACT_THRESHOLD = 1_000_000;

const UNITS: ReadonlyArray<{ readonly factor: number; readonly suffix: string }> = [
  { factor: 1e6, suffix: 'млн' },
  { factor: 1e9, suffix: 'млрд' },
  { factor: 1e12, suffix: 'трлн' },
];

/** Options of {@link formatNumber}. */
export interface NumberFormatOptions {
  /** Most fraction digits shown; trailing zeros are trimmed. Default 2. */
  readonly maxFractionDigits?: number;
  /** Exact number of fraction digits (zeros kept); overrides maxFractionDigits. */
  readonly fractionDigits?: number;
  /** Use the млн/млрд/трлн suffixes from one million on. Default true. */
  readonly compact?: boolean;
  /** Prefix positive numbers with «+» (for changes). Default false. */
  readonly signed?: boolean;
}

type Num = number | null | undefined;

function isPresent(value: Num): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** Groups the digits of a non-negative integer string by three with {@link NBSP}. */
function groupDigits(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, NBSP);
}

/**
 * Formats a non-negative number: rounds to `digits` fraction digits, groups the integer part,
 * trims trailing fraction zeros unless `keepZeros`.
 */
function plain(abs: number, digits: number, keepZeros: boolean): string {
  // toFixed switches to exponent notation at 1e21; such values are never shown unscaled.
  const fixed = abs.toFixed(digits);
  const dot = fixed.indexOf('.');
  const intPart = dot === -1 ? fixed : fixed.slice(0, dot);
  let frac = dot === -1 ? '' : fixed.slice(dot + 1);
  if (!keepZeros) frac = frac.replace(/0+$/, '');
  return frac ? `${groupDigits(intPart)},${frac}` : groupDigits(intPart);
}

/** Whether `abs` rounded to `digits` fraction digits is zero. */
function roundsToZero(abs: number, digits: number): boolean {
  return Number(abs.toFixed(digits)) === 0;
}

function applySign(negative: boolean, signed: boolean, body: string, isZero: boolean): string {
  if (isZero) return body;
  if (negative) return `-${body}`;
  return signed ? `+${body}` : body;
}

/**
 * Formats a number for display: «1 234», «1 234,5», «1,23 млн», «4,5 млрд». See the module
 * comment for every rule. Missing values give {@link MISSING_VALUE}.
 */
export function formatNumber(value: Num, options: NumberFormatOptions = {}): string {
  if (!isPresent(value)) return MISSING_VALUE;
  const keepZeros = options.fractionDigits !== undefined;
  const digits = Math.max(0, Math.min(20, options.fractionDigits ?? options.maxFractionDigits ?? 2));
  const compact = options.compact ?? true;
  const signed = options.signed ?? false;
  const negative = value < 0;
  const abs = Math.abs(value);

  // 999 999,999 rounds to a million, so it is shown as «1 млн», not «1 000 000».
  if (compact && (abs >= COMPACT_THRESHOLD || Number(abs.toFixed(digits)) >= COMPACT_THRESHOLD)) {
    let index = Math.max(0, UNITS.findLastIndex((u) => abs >= u.factor));
    let scaled = abs / (UNITS[index]?.factor ?? 1);
    // 999.995 млн rounds to «1 000 млн»: say «1 млрд» instead.
    if (Number(scaled.toFixed(2)) >= 1000 && index < UNITS.length - 1) {
      index += 1;
      scaled = abs / (UNITS[index]?.factor ?? 1);
    }
    const unit = UNITS[index];
    if (unit) {
      return applySign(negative, signed, `${plain(scaled, 2, false)}${NBSP}${unit.suffix}`, false);
    }
  }
  return applySign(negative, signed, plain(abs, digits, keepZeros), roundsToZero(abs, digits));
}

/** Formats an integer count in full, never with a suffix: 1234567 → «1 234 567». */
export function formatInteger(value: Num): string {
  return formatNumber(isPresent(value) ? Math.round(value) : value, { compact: false, maxFractionDigits: 0 });
}

/** Decimals of every percent value in the reports (see the module comment). */
const PERCENT_DIGITS = 2;

/** Options of {@link formatPercent}. */
export interface PercentFormatOptions {
  /** Decimals shown, zeros kept. Default {@link PERCENT_DIGITS}; 0 only for a setting's label. */
  readonly fractionDigits?: number;
  /** Prefix positive values with «+» (for changes). Default false. */
  readonly signed?: boolean;
}

/** A percent already multiplied by 100, with its decimals fixed: 20.5 → «20,50%». */
function percentText(hundredths: number, options: PercentFormatOptions): string {
  const body = formatNumber(hundredths, { fractionDigits: options.fractionDigits ?? PERCENT_DIGITS, compact: false, signed: options.signed ?? false });
  return `${body}%`;
}

/** Formats a fraction as a percent: 0.1234 → «12,34%», 1 → «100,00%», -0.05 with signed → «-5,00%». */
export function formatPercent(fraction: Num, options: PercentFormatOptions = {}): string {
  return isPresent(fraction) ? percentText(fraction * 100, options) : MISSING_VALUE;
}

/**
 * Formats a duration in seconds as «mm:ss», or «h:mm:ss» from an hour on (the spec shows average
 * durations as mm:ss). Fractions of a second are rounded.
 */
export function formatDuration(seconds: Num): string {
  if (!isPresent(seconds)) return MISSING_VALUE;
  const total = Math.round(Math.abs(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  const body = h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${pad(m)}:${pad(s)}`;
  return seconds < 0 && total > 0 ? `-${body}` : body;
}

/** How a metric's number is shown (the catalogue's `MetricUnit`). */
export type ValueUnit = 'count' | 'percent' | 'ratio' | 'seconds';

/**
 * A metric value by its unit: counts as numbers («1 234», «1,23 млн»), percents as the api gives
 * them, already multiplied by 100, always with two decimals («20,51%», «20,00%»), ratios with up
 * to two decimals («1,72»), seconds as a duration («01:20», «1:02:03»). Missing values are «NA».
 */
export function formatMetric(value: Num, unit: ValueUnit): string {
  switch (unit) {
    case 'count':
      return formatNumber(value);
    case 'percent':
      return isPresent(value) ? percentText(value, {}) : MISSING_VALUE;
    case 'ratio':
      return formatNumber(value, { maxFractionDigits: 2 });
    case 'seconds':
      return formatDuration(value);
  }
}

/**
 * Whether `value` shows exactly with `digits` decimals. Ticks are 1-2-5 multiples computed in
 * floats (0.1 + 0.2), so a difference below 1e-9 is noise, not a decimal.
 */
function exactWith(value: number, digits: number): boolean {
  return Math.abs(value - Number(value.toFixed(digits))) < 1e-9;
}

/**
 * The labels of a value axis's ticks. Percent ticks share one number of decimals, the fewest (up
 * to {@link PERCENT_DIGITS}) that show every tick exactly: «0%», «25%», «50%» — or «2,5%», «5,0%»,
 * «7,5%» — never «5%» beside «7,5%» on one axis, and never «20,00%» on a scale whose marks are
 * round by construction. Other units are labelled as their values are shown.
 */
export function formatAxisTicks(ticks: readonly number[], unit: ValueUnit): string[] {
  if (unit !== 'percent') return ticks.map((t) => formatMetric(t, unit));
  let digits = 0;
  while (digits < PERCENT_DIGITS && !ticks.every((t) => exactWith(t, digits))) digits += 1;
  return ticks.map((t) => percentText(t, { fractionDigits: digits }));
}

import { useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { allowedGroups, periodDays, resolveDate, type EventbaseLatency, type IsoDate, type PeriodGroup } from '@stat/schemas/period';
import { formatIsoDate, parseDisplayDate } from '../../lib/dates';
import { dayChanged, knownClockOffset, refreshServerClock } from '../../lib/clock';
import { GROUP_LABELS, LONG_PERIOD_DAYS, matchQuickRange, quickRanges, type DateParam, type Period } from '../../lib/period';
import { CHART_TYPE_LABELS, CHART_TYPES, type ChartType } from './charts';
import { Dropdown } from '../../components/Dropdown';
import { useDataRange } from './hooks';
import { Calendar } from './Calendar';
import { clickDay, maskDate, type Picking } from './calendar';
import styles from './Toolbar.module.css';

/** Texts of the date picker (spec 001 §4 "Date modal"). */
const DATE_MESSAGES = {
  long: 'Выбран слишком большой период, потребуется дополнительное время для загрузки отчёта.',
  invalid: 'Выбран неверный диапазон дат.',
  noData: 'За выбранный период отсутствуют данные, пожалуйста, выберете доступный интервал.',
} as const;


/** Whether a chosen range lies wholly outside the days with data (or the project has none). */
function outsideData(range: { start: IsoDate; end: IsoDate }, data: Pick<EventbaseLatency, 'start' | 'end'>): boolean {
  if (data.start === null || data.end === null) return true;
  return range.end < data.start || range.start > data.end;
}

/** Props of {@link PeriodPicker}. */
export interface PeriodPickerProps {
  readonly period: Period;
  readonly today: IsoDate;
  readonly onChange: (dateStart: DateParam, dateEnd: DateParam) => void;
  /**
   * The project whose days with data the date form asks for when it opens (not at the page's
   * load, where the report's own calls come first), to warn of a range outside them and to
   * disable the calendar's days before the first.
   */
  readonly projectId?: string;
  /** The last day that may be chosen (default today; the rating's periods end yesterday at the latest). */
  readonly lastDay?: IsoDate;
}

/** Quick ranges shown as buttons; the calendar ones are offered in the date form. */
const INLINE_RANGES: ReadonlySet<string> = new Set(['today', 'yesterday', '7days', '30days']);

/** «Период:» — the quick ranges and the chosen dates, which open a form for any other range. */
export function PeriodPicker({ period, today, onChange, projectId, lastDay = today }: PeriodPickerProps) {
  const active = matchQuickRange(period, today);
  const [open, setOpen] = useState(false);
  const datesRef = useRef<HTMLButtonElement>(null);
  // Closed from the keyboard or by its buttons, the popover gives the focus back to the button that
  // opened it (it would fall to the page's start); closed by a click elsewhere, the focus goes there.
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) datesRef.current?.focus();
  };
  return (
    <div className={styles.group} data-testid="period-picker">
      <span className={styles.label}>Период:</span>
      <div className={styles.segmented} role="group" aria-label="Быстрый выбор периода">
        {/* A range wholly after the last day allowed (the rating's «Сегодня») is not offered. */}
        {quickRanges(today).filter((r) => INLINE_RANGES.has(r.id) && (resolveDate(r.dateStart, today) ?? today) <= lastDay).map((range) => (
          <button
            key={range.id}
            type="button"
            className={range.id === active?.id ? `${styles.segment} ${styles.segmentActive}` : styles.segment}
            aria-pressed={range.id === active?.id}
            data-range={range.id}
            onClick={() => onChange(range.dateStart, range.dateEnd)}
          >
            {range.label}
          </button>
        ))}
      </div>
      <div className={styles.datesWrap}>
        <button
          ref={datesRef}
          type="button"
          className={open ? `${styles.dates} ${styles.datesOpen}` : styles.dates}
          aria-expanded={open}
          aria-haspopup="dialog"
          onClick={() => setOpen((v) => !v)}
          data-testid="period-dates"
        >
          <CalendarIcon />
          <span>
            {period.start === period.end
              ? formatIsoDate(period.start)
              : `${formatIsoDate(period.start)} – ${formatIsoDate(period.end)}`}
          </span>
        </button>
        {open ? (
          <DateRangeForm
            period={period}
            today={today}
            lastDay={lastDay}
            activeId={active?.id}
            projectId={projectId}
            onClose={close}
            onApply={(start, end) => {
              close(true);
              onChange(start, end);
            }}
          />
        ) : null}
      </div>
    </div>
  );
}

function CalendarIcon() {
  return (
    <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
      <rect x="1.75" y="2.75" width="12.5" height="11.5" rx="2" fill="none" stroke="currentColor" strokeWidth="1.4" />
      <path d="M1.75 6.5h12.5M5 1.25v3M11 1.25v3" stroke="currentColor" strokeWidth="1.4" strokeLinecap="round" />
    </svg>
  );
}

interface DateRangeFormProps {
  readonly period: Period;
  readonly today: IsoDate;
  readonly lastDay: IsoDate;
  readonly activeId: string | undefined;
  readonly projectId: string | undefined;
  readonly onApply: (start: DateParam, end: DateParam) => void;
  /** Closes without change: `refocus` when closed by Escape or «Отменить», not by a click elsewhere. */
  readonly onClose: (refocus: boolean) => void;
}

/** Validates typed dates: both real, none in the future; a reversed range is swapped. */
function checkRange(startText: string, endText: string, today: IsoDate): { start: IsoDate; end: IsoDate } | null {
  const a = parseDisplayDate(startText);
  const b = parseDisplayDate(endText);
  if (!a || !b || a > today || b > today) return null;
  return a <= b ? { start: a, end: b } : { start: b, end: a };
}

/** Months the calendar shows side by side: one where two would not fit the window. */
const calendarMonths = (): 1 | 2 => (typeof window !== 'undefined' && window.innerWidth < 760 ? 1 : 2);

/**
 * The form for any range: the calendar (two clicks make a range), the two dates as DD.MM.YYYY
 * (typed with a mask, or following the clicks), and the calendar quick ranges.
 */
function DateRangeForm({ period, today, lastDay, activeId, projectId, onApply, onClose }: DateRangeFormProps) {
  const dataRange = useDataRange(projectId, today);
  const [startText, setStartText] = useState(formatIsoDate(period.start));
  const [endText, setEndText] = useState(formatIsoDate(period.end));
  const [picking, setPicking] = useState<Picking>({ start: period.start, end: period.end });
  const [focus, setFocus] = useState<IsoDate | null>(null);
  const [months] = useState(calendarMonths);
  const ref = useRef<HTMLFormElement>(null);
  const id = useId();
  const range = checkRange(startText, endText, lastDay);
  // Both dates typed whole (a wrong one then says so; one being typed does not).
  const complete = [startText, endText].every((t) => /^\d{1,2}\.\d{1,2}\.\d{4}$/.test(t));
  const bounds = { min: dataRange?.start ?? null, max: lastDay };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose(true);
    };
    const onDown = (e: MouseEvent) => {
      const form = ref.current;
      if (form && e.target instanceof Node && !form.parentElement?.contains(e.target)) onClose(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('mousedown', onDown);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('mousedown', onDown);
    };
  }, [onClose]);

  useLayoutEffect(() => {
    if (ref.current) fitIntoWindow(ref.current);
  }, []);

  // Opened on another day than the page knows (left open past midnight, or the clocks disagree on
  // the day): the server's time is asked again, and the page renders with its today, which asks
  // the project's days with data of the new day (spec 001 §4 "Date modal"). Once per opening.
  useEffect(() => {
    if (dayChanged(today, knownClockOffset())) void refreshServerClock();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const pick = (day: IsoDate) => {
    const next = clickDay(picking, day);
    setPicking(next);
    setStartText(next.start === null ? '' : formatIsoDate(next.start));
    setEndText(next.end === null ? '' : formatIsoDate(next.end));
  };

  const type = (side: 'start' | 'end', text: string) => {
    const masked = maskDate(text);
    (side === 'start' ? setStartText : setEndText)(masked);
    const day = parseDisplayDate(masked);
    if (day === null) return;
    setPicking((p) => (side === 'start' ? { start: day, end: p.end } : { start: p.start, end: day }));
    setFocus(day);
  };

  // A date typed with a one-digit day or month («1.11.2026») is written whole when its field is left.
  const normalize = (side: 'start' | 'end') => {
    const text = side === 'start' ? startText : endText;
    const day = parseDisplayDate(text);
    if (day !== null) (side === 'start' ? setStartText : setEndText)(formatIsoDate(day));
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (range) onApply(range.start, range.end);
  };

  return (
    <form ref={ref} className={`${styles.popover} ${styles.periodPopover}`} role="dialog" aria-label="Выбор периода" onSubmit={submit}>
      <div className={styles.fields}>
        <label className={styles.field} htmlFor={`${id}-start`}>
          <span>С</span>
          <input
            id={`${id}-start`}
            value={startText}
            onChange={(e) => type('start', e.target.value)}
            onBlur={() => normalize('start')}
            placeholder="ДД.ММ.ГГГГ"
            inputMode="numeric"
            maxLength={10}
          />
        </label>
        <label className={styles.field} htmlFor={`${id}-end`}>
          <span>По</span>
          <input
            id={`${id}-end`}
            value={endText}
            onChange={(e) => type('end', e.target.value)}
            onBlur={() => normalize('end')}
            placeholder="ДД.ММ.ГГГГ"
            inputMode="numeric"
            maxLength={10}
          />
        </label>
      </div>
      <Calendar picking={picking} bounds={bounds} today={today} focus={focus} months={months} onPick={pick} />
      <p className={styles.hintLine}>Даты по московскому времени, не позже {formatIsoDate(lastDay)}.</p>
      {complete && !range ? <p className={styles.error}>{DATE_MESSAGES.invalid}</p> : null}
      {range && periodDays(range.start, range.end) > LONG_PERIOD_DAYS ? <p className={styles.warning}>{DATE_MESSAGES.long}</p> : null}
      {range && dataRange && outsideData(range, dataRange) ? (
        <p className={styles.warning} data-testid="period-no-data">
          {DATE_MESSAGES.noData}
        </p>
      ) : null}
      <div className={styles.popoverFoot}>
        <div className={styles.segmented} role="group" aria-label="Календарные периоды">
          {quickRanges(today)
            .filter((r) => !INLINE_RANGES.has(r.id))
            .map((r) => (
              <button
                key={r.id}
                type="button"
                className={r.id === activeId ? `${styles.segment} ${styles.segmentActive}` : styles.segment}
                aria-pressed={r.id === activeId}
                data-range={r.id}
                onClick={() => onApply(r.dateStart, r.dateEnd)}
              >
                {r.label}
              </button>
            ))}
        </div>
        <div className={styles.actions}>
          <button type="button" className={styles.secondary} onClick={() => onClose(true)}>
            Отменить
          </button>
          <button type="submit" className={styles.primary} disabled={!range}>
            Применить
          </button>
        </div>
      </div>
    </form>
  );
}

/** Room kept between the popover and the window's edges, px. */
const WINDOW_MARGIN = 16;

/**
 * Keeps the period popover inside the window (1024 × 768 included, where the toolbar sits low under
 * the report's hints): moved left where it would pass the right edge; where it would pass the
 * bottom, opened above its button when the room there, below the page's sticky header, holds it,
 * else the page is scrolled just enough to show it whole.
 */
function fitIntoWindow(form: HTMLElement): void {
  const box = form.getBoundingClientRect();
  const over = box.right - (document.documentElement.clientWidth - WINDOW_MARGIN);
  if (over > 0) form.style.left = `${-Math.min(over, Math.max(0, box.left - WINDOW_MARGIN))}px`;
  const below = box.bottom - (window.innerHeight - WINDOW_MARGIN);
  if (below <= 0) return;
  // The sticky header covers the page's top: what is under it cannot be seen.
  const header = Number.parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--header-h')) || 0;
  const anchor = form.parentElement?.getBoundingClientRect();
  const gap = box.top - (anchor?.bottom ?? box.top);
  if (anchor && anchor.top - gap - box.height >= header + WINDOW_MARGIN) {
    form.style.top = 'auto';
    form.style.bottom = `calc(100% + ${gap}px)`;
    return;
  }
  window.scrollBy({ top: Math.min(below, box.top - header - WINDOW_MARGIN) });
}

/** Props of {@link GroupPicker}. */
export interface GroupPickerProps {
  readonly period: Period;
  readonly onChange: (group: PeriodGroup) => void;
}

/** «Детализация:» — the groups the period allows (spec 001 §4). */
export function GroupPicker({ period, onChange }: GroupPickerProps) {
  return (
    <div className={styles.group} data-testid="group-picker">
      <span className={styles.label}>Детализация:</span>
      <div className={styles.segmented} role="group" aria-label="Детализация">
        {allowedGroups(period.start, period.end).map((group) => (
          <button
            key={group}
            type="button"
            className={group === period.group ? `${styles.segment} ${styles.segmentActive}` : styles.segment}
            aria-pressed={group === period.group}
            data-group={group}
            onClick={() => onChange(group)}
          >
            {GROUP_LABELS[group]}
          </button>
        ))}
      </div>
    </div>
  );
}

/** A rating category of the site, as the picker names it. */
export interface CategoryOption {
  readonly id: number;
  readonly title: string;
}

/** Props of {@link CategoryPicker}. */
export interface CategoryPickerProps {
  readonly options: readonly CategoryOption[];
  readonly value: number;
  readonly onChange: (id: number) => void;
}

/** The rating report's category selector (spec 001 §2): which of the site's categories it ranks. */
export function CategoryPicker({ options, value, onChange }: CategoryPickerProps) {
  const current = options.find((o) => o.id === value) ?? options[0];
  if (!current) return null;
  return (
    <div className={styles.group} data-testid="category-picker">
      <span className={styles.label}>Категория:</span>
      {options.length === 1 ? (
        <span className={styles.value}>{current.title}</span>
      ) : (
        <Dropdown
          label="Категория рейтинга"
          align="left"
          triggerClassName={styles.select}
          trigger={
            <>
              {current.title}
              <span className={styles.caret} aria-hidden="true" />
            </>
          }
          items={options.map((o) => ({ label: o.title, onSelect: () => onChange(o.id), 'data-testid': `category-${o.id}` }))}
          data-testid="category-trigger"
        />
      )}
    </div>
  );
}

/** The report toolbar row. */
export function Toolbar({ children }: { readonly children: ReactNode }) {
  return <div className={styles.toolbar}>{children}</div>;
}

/** The graph tools at the end of the toolbar row (count, chart type, percent). */
export function ToolbarEnd({ children }: { readonly children: ReactNode }) {
  return <div className={styles.end}>{children}</div>;
}

/** Props of {@link GraphCountPicker}. */
export interface GraphCountPickerProps {
  readonly value: 1 | 2;
  /** «2 графика» needs a second shown metric. */
  readonly twoAllowed: boolean;
  readonly onChange: (count: 1 | 2) => void;
}

/** «1 график» / «2 графика» (spec 001 §2 "Toolbar"). */
export function GraphCountPicker({ value, twoAllowed, onChange }: GraphCountPickerProps) {
  const options = [
    { count: 1, label: '1 график', disabled: false },
    { count: 2, label: '2 графика', disabled: !twoAllowed },
  ] as const;
  return (
    <div className={styles.segmented} role="group" aria-label="Число графиков" data-testid="graph-count">
      {options.map((o) => (
        <button
          key={o.count}
          type="button"
          className={o.count === value ? `${styles.segment} ${styles.segmentActive}` : styles.segment}
          aria-pressed={o.count === value}
          disabled={o.disabled}
          title={o.disabled ? 'Для второго графика выберите ещё один показатель' : undefined}
          data-count={o.count}
          onClick={() => onChange(o.count)}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}

/** Props of {@link ChartTypePicker}. */
export interface ChartTypePickerProps {
  readonly value: ChartType;
  /** The types the graphed metrics allow; others are disabled. */
  readonly allowed: readonly ChartType[];
  readonly onChange: (type: ChartType) => void;
}

/** The chart type switcher: line, bar, pie, area (spec 001 §2 "Toolbar"). */
export function ChartTypePicker({ value, allowed, onChange }: ChartTypePickerProps) {
  return (
    <div className={styles.segmented} role="group" aria-label="Тип графика" data-testid="chart-type">
      {CHART_TYPES.map((type) => (
        <button
          key={type}
          type="button"
          className={type === value ? `${styles.segment} ${styles.iconSegment} ${styles.segmentActive}` : `${styles.segment} ${styles.iconSegment}`}
          aria-pressed={type === value}
          aria-label={CHART_TYPE_LABELS[type]}
          title={CHART_TYPE_LABELS[type]}
          disabled={!allowed.includes(type)}
          data-type={type}
          onClick={() => onChange(type)}
        >
          <ChartIcon type={type} />
        </button>
      ))}
    </div>
  );
}

function ChartIcon({ type }: { readonly type: ChartType }) {
  const stroke = { fill: 'none', stroke: 'currentColor', strokeWidth: 1.5, strokeLinecap: 'round', strokeLinejoin: 'round' } as const;
  return (
    <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
      {type === 'line' ? <path d="M1.5 12 5.5 7l3 3 6-7" {...stroke} /> : null}
      {type === 'bar' ? <path d="M2.5 14V8M6.5 14V3M10.5 14V6M14 14V10" {...stroke} strokeWidth={2.2} strokeLinecap="butt" /> : null}
      {type === 'pie' ? (
        <>
          <circle cx="8" cy="8" r="6.25" {...stroke} />
          <path d="M8 1.75V8h6.25" {...stroke} />
        </>
      ) : null}
      {type === 'area' ? (
        <>
          <path d="M1.5 14V11l4-5 3 3 6-6v11Z" fill="currentColor" opacity="0.3" />
          <path d="M1.5 11l4-5 3 3 6-6" {...stroke} />
        </>
      ) : null}
    </svg>
  );
}

/** Props of {@link PercentToggle}. */
export interface PercentToggleProps {
  readonly value: boolean;
  /** Shares mean something only for counts. */
  readonly allowed: boolean;
  readonly onChange: (percent: boolean) => void;
}

/** The percent toggle (spec 001 §2 "Report page layout"): the lines as shares of «Итого». */
export function PercentToggle({ value, allowed, onChange }: PercentToggleProps) {
  return (
    <button
      type="button"
      className={value ? `${styles.toggle} ${styles.toggleOn}` : styles.toggle}
      aria-pressed={value}
      disabled={!allowed}
      title={allowed ? 'Доли от итога, %' : 'Доли считаются только для количественных показателей'}
      data-testid="percent-toggle"
      onClick={() => onChange(!value)}
    >
      %
    </button>
  );
}

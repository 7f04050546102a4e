import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { IsoDate } from '@stat/schemas/period';
import { formatMonth, MONTHS_GENITIVE } from '../../lib/dates';
import { arrowTarget, dayRole, firstShownMonth, monthWeeks, selectable, shiftMonth, type DayBounds, type Picking } from './calendar';
import styles from './Toolbar.module.css';

const WEEKDAY_HEADS = ['Пн', 'Вт', 'Ср', 'Чт', 'Пт', 'Сб', 'Вс'] as const;
/** The weekdays' full names, read by a screen reader for the heads. */
const WEEKDAY_NAMES = ['понедельник', 'вторник', 'среда', 'четверг', 'пятница', 'суббота', 'воскресенье'] as const;

/** Props of {@link Calendar}. */
export interface CalendarProps {
  /** The range as picked so far. */
  readonly picking: Picking;
  readonly bounds: DayBounds;
  /** Today, a Moscow date: marked. */
  readonly today: IsoDate;
  /** A day to bring into view when it changes (a date typed into a field). */
  readonly focus: IsoDate | null;
  /** Months shown side by side. */
  readonly months: 1 | 2;
  readonly onPick: (day: IsoDate) => void;
}

/** «15 ноября 2026», a day's name for a screen reader. */
const dayName = (day: IsoDate): string => `${Number(day.slice(8, 10))} ${MONTHS_GENITIVE[Number(day.slice(5, 7)) - 1] ?? ''} ${day.slice(0, 4)}`;

/**
 * The calendar of «Период:» (spec 001 §4 "Date modal"): one or two months, Monday first; days
 * outside the bounds are disabled; between the two clicks of a range the pointer previews it.
 */
export function Calendar({ picking, bounds, today, focus, months, onPick }: CalendarProps) {
  const [first, setFirst] = useState<IsoDate>(() => firstShownMonth(picking.end ?? picking.start ?? bounds.max, bounds.max, months));
  const [hover, setHover] = useState<IsoDate | null>(null);
  const last = shiftMonth(first, months - 1);

  // A typed date outside the months shown brings its month into view.
  useEffect(() => {
    if (focus === null) return;
    if (focus < first || focus >= shiftMonth(last, 1)) setFirst(firstShownMonth(focus, bounds.max, months));
    // Only a new typed date moves the months, not the arrows' moves.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focus]);

  // A day the arrow keys moved to, focused once its month is drawn.
  const [keyed, setKeyed] = useState<IsoDate | null>(null);
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (keyed === null) return;
    root.current?.querySelector<HTMLButtonElement>(`[data-day="${keyed}"]`)?.focus();
    setKeyed(null);
  }, [keyed, first]);

  // Arrows move the focus between days (each day is a button reachable by Tab too); a day past the
  // months shown brings the next or previous month into view.
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const from = e.target instanceof HTMLElement ? e.target.dataset.day : undefined;
    if (from === undefined) return;
    const to = arrowTarget(from, e.key, bounds);
    if (to === null) return;
    e.preventDefault();
    if (to < first) setFirst(shiftMonth(first, -1));
    else if (to >= shiftMonth(last, 1)) setFirst(shiftMonth(first, 1));
    setKeyed(to);
  };

  const canBack = bounds.min === null || first > bounds.min;
  const canForward = shiftMonth(last, 1) <= bounds.max;
  const shown = Array.from({ length: months }, (_, i) => shiftMonth(first, i));
  return (
    <div ref={root} className={styles.calendar} data-testid="period-calendar" onMouseLeave={() => setHover(null)} onKeyDown={onKeyDown}>
      {shown.map((month, i) => (
        <div key={month} className={styles.month}>
          <div className={styles.monthHead}>
            {i === 0 ? (
              <button type="button" className={styles.monthArrow} aria-label="Предыдущий месяц" disabled={!canBack} onClick={() => setFirst(shiftMonth(first, -1))}>
                <Chevron direction="back" />
              </button>
            ) : (
              <span className={styles.monthArrowSpace} />
            )}
            <span className={styles.monthTitle}>{formatMonth(month)}</span>
            {i === shown.length - 1 ? (
              <button type="button" className={styles.monthArrow} aria-label="Следующий месяц" disabled={!canForward} onClick={() => setFirst(shiftMonth(first, 1))}>
                <Chevron direction="forward" />
              </button>
            ) : (
              <span className={styles.monthArrowSpace} />
            )}
          </div>
          {/* A table read as a grid: rows of weeks, the weekdays' heads, the arrows move between days. */}
          <table className={styles.monthGrid} role="grid" aria-label={formatMonth(month)}>
            <thead>
              <tr>
                {WEEKDAY_HEADS.map((head, d) => (
                  <th key={head} scope="col" abbr={WEEKDAY_NAMES[d]} className={styles.weekday}>
                    {head}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {monthWeeks(month).map((week) => (
                <tr key={week.find((d) => d !== null) ?? month}>
                  {week.map((day, cell) => (
                    <td key={day ?? `empty-${cell}`} className={styles.dayCell}>
                      {day === null ? null : (
                        <DayButton
                          day={day}
                          role={dayRole(day, picking, hover)}
                          today={day === today}
                          enabled={selectable(day, bounds)}
                          onPick={onPick}
                          onHover={setHover}
                        />
                      )}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
    </div>
  );
}

function Chevron({ direction }: { readonly direction: 'back' | 'forward' }) {
  return (
    <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
      <path d={direction === 'back' ? 'M10 3.5 5.5 8l4.5 4.5' : 'M6 3.5 10.5 8 6 12.5'} fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

interface DayButtonProps {
  readonly day: IsoDate;
  readonly role: 'edge' | 'inside' | null;
  readonly today: boolean;
  readonly enabled: boolean;
  readonly onPick: (day: IsoDate) => void;
  readonly onHover: (day: IsoDate) => void;
}

function DayButton({ day, role, today, enabled, onPick, onHover }: DayButtonProps) {
  const classes = [styles.day, role === 'edge' ? styles.dayEdge : role === 'inside' ? styles.dayInside : '', today ? styles.dayToday : ''].filter(Boolean).join(' ');
  return (
    <button
      type="button"
      className={classes}
      disabled={!enabled}
      aria-label={dayName(day)}
      aria-pressed={role === 'edge'}
      aria-current={today ? 'date' : undefined}
      data-day={day}
      onClick={() => onPick(day)}
      onMouseEnter={() => (enabled ? onHover(day) : undefined)}
    >
      {Number(day.slice(8, 10))}
    </button>
  );
}

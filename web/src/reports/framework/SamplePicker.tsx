import { useRef, useState } from 'react';
import type { WholeReason } from '@stat/schemas';
import { useDismiss } from '../../components/useDismiss';
import { formatSample, SAMPLE_STEPS, sampleStep } from '../dimension/state';
import styles from './Toolbar.module.css';

/** The slider applies on Enter as on Escape or a click outside (§4: "applied on close"). */
const CLOSING_KEYS = ['Escape', 'Enter'];

/**
 * Why a report is read whole whatever sample is asked (the slider's tooltip): the api reads
 * today's period whole (§4 "Sample is forced to 1 for today's period"), a report that does not
 * sample is exact, and a small period, or a report the ready-made totals answer, needs no sample.
 */
const WHOLE_REASONS: Readonly<Record<WholeReason, string>> = {
  today: 'За сегодня отчёт строится по всем данным',
  exact: 'Отчёт точный: он строится по готовым итогам, выборка не нужна',
  period: 'За этот период отчёт строится по всем данным: выборка его не ускорит',
};

/** Why the report is read whole whatever is asked, or null when the slider's choice applies. */
export function wholeReason(state: { today: boolean; sampling: boolean; value: number; used: number | undefined; whole?: WholeReason | undefined }): WholeReason | null {
  if (state.today) return 'today';
  if (!state.sampling) return 'exact';
  // The reports' answers say why they read all (rollups, a small period); the others read a sample
  // of the events unless the period is small.
  if (state.whole !== undefined) return state.whole;
  return state.used !== undefined && state.used >= 1 && state.value < 1 ? 'period' : null;
}

/** Props of {@link SamplePicker}. */
export interface SamplePickerProps {
  /** The sample asked for (the slider's position). */
  readonly value: number;
  /** The sample the answer was read with (undefined while there is no answer). */
  readonly used?: number | undefined;
  /** Why the answer read all though a sample was asked, when it says (the reports' `meta.whole`). */
  readonly whole?: WholeReason | undefined;
  /** Whether the period is today alone: the api reads it whole. */
  readonly today: boolean;
  /** Whether the report may read a sample at all (the definition's `sampling`); true by default. */
  readonly sampling?: boolean;
  /** Called on close, only when the slider moved to another step. */
  readonly onChange: (sample: number) => void;
}

/**
 * «Точность:» (spec 001 §4 "Sampling"): a slider with three steps, 1 %, 10 % and 100 %, in a
 * popover; the choice applies when the popover closes, and only if it changed. When the report is
 * read whole whatever is asked, the button shows «100%», cannot be opened, and says why.
 */
export function SamplePicker({ value, used, whole, today, sampling = true, onChange }: SamplePickerProps) {
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState(() => SAMPLE_STEPS.indexOf(sampleStep(value)));
  const wrapRef = useRef<HTMLDivElement>(null);
  const state = useRef({ draft, value, onChange });
  state.current = { draft, value, onChange };

  const close = () => {
    setOpen(false);
    const { draft: index, value: before, onChange: apply } = state.current;
    const chosen = SAMPLE_STEPS[index];
    if (chosen !== undefined && chosen !== sampleStep(before)) apply(chosen);
  };
  const closeRef = useRef(close);
  closeRef.current = close;

  useDismiss(open, wrapRef, () => closeRef.current(), CLOSING_KEYS);

  const reason = wholeReason({ today, sampling, value, used, whole });
  const shown = reason !== null ? 1 : (used ?? value);
  return (
    <div className={styles.group} data-testid="sample-picker">
      <span className={styles.label}>Точность:</span>
      <div className={styles.datesWrap} ref={wrapRef}>
        <button
          type="button"
          className={open ? `${styles.dates} ${styles.datesOpen}` : styles.dates}
          aria-expanded={open}
          disabled={reason !== null}
          onClick={() => {
            if (open) close();
            else {
              setDraft(SAMPLE_STEPS.indexOf(sampleStep(value)));
              setOpen(true);
            }
          }}
          data-testid="sample-value"
          data-sample={shown}
          title={reason !== null ? WHOLE_REASONS[reason] : undefined}
        >
          {formatSample(shown)}
        </button>
        {open && reason === null ? (
          <div className={`${styles.popover} ${styles.samplePopover}`} role="dialog" aria-label="Точность">
            <input
              type="range"
              min={0}
              max={SAMPLE_STEPS.length - 1}
              step={1}
              value={draft}
              onChange={(e) => setDraft(Number(e.target.value))}
              aria-label="Точность"
              aria-valuetext={formatSample(SAMPLE_STEPS[draft] ?? 1)}
              className={styles.slider}
              data-testid="sample-slider"
              autoFocus
            />
            <div className={styles.sliderTicks}>
              {SAMPLE_STEPS.map((step, i) => (
                <button key={step} type="button" className={i === draft ? styles.tickActive : styles.tick} onClick={() => setDraft(i)}>
                  {formatSample(step)}
                </button>
              ))}
            </div>
            <p className={styles.hintLine}>Чем меньше точность, тем быстрее строится отчёт по большому периоду.</p>
          </div>
        ) : null}
      </div>
    </div>
  );
}

import { useRef, useState } from 'react';
import { useDismiss } from '../../components/useDismiss';
import { formatSample, SAMPLE_STEPS, sampleStep } from '../dimension/state';
import styles from './Toolbar.module.css';

/** The slider applies on Enter as on Escape or a click outside (§4: "applied on close"). */
const CLOSING_KEYS = ['Escape', 'Enter'];

/** Props of {@link SamplePicker}. */
export interface SamplePickerProps {
  /** The sample asked for (the slider's position). */
  readonly value: number;
  /** The sample the answer was read with, when it differs (1 for today's period). */
  readonly used?: number | undefined;
  /** Called on close, only when the slider moved to another step. */
  readonly onChange: (sample: number) => void;
}

/**
 * «Точность:» (spec 001 §4 "Sampling"): a slider with three steps, 1 %, 10 % and 100 %, in a
 * popover; the choice applies when the popover closes, and only if it changed.
 */
export function SamplePicker({ value, used, onChange }: SamplePickerProps) {
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

  const shown = used ?? value;
  return (
    <div className={styles.group} data-testid="sample-picker">
      <span className={styles.label}>Точность:</span>
      <div className={styles.datesWrap} ref={wrapRef}>
        <button
          type="button"
          className={open ? `${styles.dates} ${styles.datesOpen}` : styles.dates}
          aria-expanded={open}
          onClick={() => {
            if (open) close();
            else {
              setDraft(SAMPLE_STEPS.indexOf(sampleStep(value)));
              setOpen(true);
            }
          }}
          data-testid="sample-value"
          data-sample={shown}
          title={used !== undefined && used !== value ? 'За сегодня отчёт строится по всем данным' : undefined}
        >
          {formatSample(shown)}
        </button>
        {open ? (
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

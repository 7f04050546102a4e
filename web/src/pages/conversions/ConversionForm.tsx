import { useState, type FormEvent } from 'react';
import {
  ATTRIBUTION_LABELS,
  ATTRIBUTION_MODELS,
  ATTRIBUTION_WINDOWS,
  CONVERSION_DESCRIPTION_MAX,
  CONVERSION_METRICS,
  CONVERSION_TITLE_MAX,
  type AttributionModel,
  type AttributionWindow,
  type Conversion,
  type ConversionMetric,
} from '@stat/schemas/conversions';
import { FormFooter, Modal } from '../../components/Modal';
import { Field, Spinner, TextArea, TextField } from '../../components/ui';
import type { ConversionBody } from '../../data/calls';
import { useRequest } from '../../lib/hooks';
import { listGoals } from '../goals/goalsApi';
import { CONVERSION_PAGE_TEXTS as T, draftProblems, METRIC_TITLES, windowText } from './conversionState';
import styles from './Conversions.module.css';

/** Spec 002 §9: the goal pickers list up to 100 goals. */
const GOAL_PICKER_LIMIT = 100;

export interface ConversionFormProps {
  readonly projectId: string;
  /** the conversion changed; none: a new one */
  readonly conversion: Conversion | null;
  /** a new conversion's goal, chosen in advance (added from a goal's row) */
  readonly goalId?: number;
  readonly busy: boolean;
  readonly error: string | null;
  readonly onSave: (body: ConversionBody) => void;
  readonly onCancel: () => void;
}

const pick = <V extends string | number>(options: readonly V[], value: string, fallback: V): V => options.find((o) => String(o) === value) ?? fallback;

/**
 * ConversionForm (spec 002 §2, §3, §5): title, description, metric, the goal counted, the goal
 * it is counted of («Все визиты» when none), the attribution model and window.
 */
export function ConversionForm({ projectId, conversion, goalId, busy, error, onSave, onCancel }: ConversionFormProps) {
  const [title, setTitle] = useState(conversion?.title ?? '');
  const [description, setDescription] = useState(conversion?.description ?? '');
  const [metric, setMetric] = useState<ConversionMetric>(conversion?.metric ?? CONVERSION_METRICS[0]);
  const [numerator, setNumerator] = useState(conversion ? String(conversion.numerator_goal_id) : goalId !== undefined ? String(goalId) : '');
  const [denominator, setDenominator] = useState(conversion?.denominator_goal_id ? String(conversion.denominator_goal_id) : '');
  const [attribution, setAttribution] = useState<AttributionModel>(conversion?.attribution ?? ATTRIBUTION_MODELS[0]);
  const [window, setWindow] = useState<AttributionWindow>(conversion?.attribution_window ?? ATTRIBUTION_WINDOWS[0]);
  const [tried, setTried] = useState(false);
  const goals = useRequest(`conversion-goals:${projectId}`, (signal) => listGoals(projectId, { search: '', showCommon: true, limit: GOAL_PICKER_LIMIT, offset: 0 }, { signal }));
  const problems = tried ? draftProblems({ title, description, numerator }) : {};

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (Object.keys(draftProblems({ title, description, numerator })).length > 0) return;
    onSave({
      title: title.trim(),
      description: description.trim(),
      metric,
      numerator_goal_id: Number(numerator),
      denominator_goal_id: denominator === '' ? null : Number(denominator),
      access: conversion?.access ?? 'own',
      attribution,
      attribution_window: window,
      is_favorite: conversion?.is_favorite ?? false,
    });
  };
  const goalOptions = (goals.data?.goals ?? []).map((g) => (
    <option key={g.id} value={String(g.id)}>
      {g.title}
    </option>
  ));

  return (
    <Modal
      title={conversion ? T.formEdit : T.formAdd}
      onClose={onCancel}
      width={560}
      data-testid="conversion-form"
      footer={<FormFooter form="conversion-form" saveLabel={T.save} cancelLabel={T.cancel} busy={busy} error={error} onCancel={onCancel} saveTestId="conversion-save" errorTestId="conversion-form-error" />}
    >
      <form id="conversion-form" className={styles.form} onSubmit={submit} noValidate>
        <TextField
          label={T.fieldTitle}
          value={title}
          maxLength={CONVERSION_TITLE_MAX}
          onChange={(e) => setTitle(e.target.value)}
          error={problems.title ?? null}
          aside={`${[...title].length} / ${CONVERSION_TITLE_MAX}`}
          data-testid="conversion-title"
        />
        <Field label={T.fieldDescription} htmlFor="conversion-description" error={problems.description ?? null} aside={`${[...description].length} / ${CONVERSION_DESCRIPTION_MAX}`}>
          <TextArea id="conversion-description" value={description} rows={2} invalid={Boolean(problems.description)} onChange={(e) => setDescription(e.target.value)} data-testid="conversion-description" />
        </Field>
        <Field label={T.fieldMetric} htmlFor="conversion-metric">
          <select id="conversion-metric" className={styles.select} value={metric} onChange={(e) => setMetric(pick(CONVERSION_METRICS, e.target.value, metric))} data-testid="conversion-metric">
            {CONVERSION_METRICS.map((m) => (
              <option key={m} value={m}>
                {METRIC_TITLES[m]}
              </option>
            ))}
          </select>
        </Field>
        <Field label={T.fieldNumerator} htmlFor="conversion-numerator" error={problems.numerator ?? null} aside={goals.loading ? <Spinner size={14} label="Загрузка" /> : undefined}>
          <select id="conversion-numerator" className={styles.select} value={numerator} onChange={(e) => setNumerator(e.target.value)} data-testid="conversion-numerator">
            <option value="">—</option>
            {goalOptions}
          </select>
        </Field>
        <Field label={T.fieldDenominator} htmlFor="conversion-denominator">
          <select id="conversion-denominator" className={styles.select} value={denominator} onChange={(e) => setDenominator(e.target.value)} data-testid="conversion-denominator">
            <option value="">{T.allVisits}</option>
            {goalOptions}
          </select>
        </Field>
        <div className={styles.formRow}>
          <Field label={T.fieldAttribution} htmlFor="conversion-attribution">
            <select id="conversion-attribution" className={styles.select} value={attribution} onChange={(e) => setAttribution(pick(ATTRIBUTION_MODELS, e.target.value, attribution))} data-testid="conversion-attribution">
              {ATTRIBUTION_MODELS.map((m) => (
                <option key={m} value={m}>
                  {ATTRIBUTION_LABELS[m]}
                </option>
              ))}
            </select>
          </Field>
          <Field label={T.fieldWindow} htmlFor="conversion-window">
            <select id="conversion-window" className={styles.select} value={String(window)} onChange={(e) => setWindow(pick(ATTRIBUTION_WINDOWS, e.target.value, window))} data-testid="conversion-window">
              {ATTRIBUTION_WINDOWS.map((w) => (
                <option key={w} value={String(w)}>
                  {windowText(w)}
                </option>
              ))}
            </select>
          </Field>
        </div>
      </form>
    </Modal>
  );
}

import { useEffect, useMemo, useState } from 'react';
import { Modal } from '../../components/Modal';
import { Button } from '../../components/ui';
import { METRIC_INFO, type Metric } from '@stat/schemas/catalogue';
import { eventClassTitle, FILTER_LIMITS, METRIC_OPERATORS, type MetricFilterRule } from '@stat/schemas/filters';
import { filterItem, RULE_LIMITS, searchMenu } from './catalogue';
import { COMPARISON_WORDS } from './chips';
import { COMPARISONS, emptyRule, formToApi, type Comparison, type FilterBlock, type FormOp, type FormRule } from './form';
import { fetchFilterValues } from './filtersApi';
import { maskMetricText, rowsToRules, rulesToRows, type MetricRow } from './metricForm';
import { ValueList } from './ValueList';
import styles from './filters.module.css';

/** Props of {@link FilterDialog}. */
export interface FilterDialogProps {
  readonly projectId: string;
  readonly period: { readonly start: string; readonly end: string };
  /** The current filters as the form shows them. */
  readonly initial: readonly FilterBlock[];
  /** The report's metrics, which metric filters may compare, and the current metric filters. */
  readonly metrics: readonly Metric[];
  readonly initialMetrics: readonly MetricFilterRule[];
  readonly onApply: (blocks: FilterBlock[], metricRules: MetricFilterRule[]) => void;
  readonly onCancel: () => void;
  /** The dimensions the menu offers, when not all (a goal's conditions: those of events). */
  readonly keys?: readonly string[];
}

const OP_LABELS: Readonly<Record<FormOp, string>> = { AND: 'И', OR: 'ИЛИ', NOT: 'НЕ' };

/**
 * «Фильтры по условиям» (spec 001 §4): the menu of dimensions on the left, searched by
 * «Введите название раздела»; the chosen dimensions' filters on the right, each a few rules
 * (at most its type's limit) that combine with AND; «Применить», «Отменить», «Сбросить настройки».
 */
export function FilterDialog({ projectId, period, initial, metrics, initialMetrics, onApply, onCancel, keys }: FilterDialogProps) {
  const [blocks, setBlocks] = useState<FilterBlock[]>(() => [...initial]);
  const [rows, setRows] = useState<MetricRow[]>(() => rulesToRows(initialMetrics));
  const [search, setSearch] = useState('');
  const menu = useMemo(
    () => (keys ? searchMenu(search).flatMap((s) => (s.items.some((i) => keys.includes(i.key)) ? [{ ...s, items: s.items.filter((i) => keys.includes(i.key)) }] : [])) : searchMenu(search)),
    [search, keys],
  );
  const needle = search.trim().toLowerCase();
  const metricItems = metrics.filter((m) => !needle || 'показатели'.includes(needle) || METRIC_INFO[m].title.toLowerCase().includes(needle));
  // The api takes at most FILTER_LIMITS.rules rules a list (a checkbox AND makes one per value).
  const tooMany = formToApi(blocks).length > FILTER_LIMITS.rules || rowsToRules(rows).length > FILTER_LIMITS.rules;
  const addMetric = (key: Metric) => {
    if (rows.length < FILTER_LIMITS.rules) setRows((prev) => [...prev, { key, op: '>', text: '' }]);
  };

  const add = (key: string) => {
    if (blocks.some((b) => b.key === key)) return;
    const { type } = filterItem(key);
    setBlocks((prev) => [...prev, { key, type, rules: [emptyRule(type)] }]);
  };
  const setBlock = (index: number, block: FilterBlock | null) =>
    setBlocks((prev) => (block === null ? prev.filter((_, i) => i !== index) : prev.map((b, i) => (i === index ? block : b))));

  return (
    <Modal
      title="Фильтры по условиям"
      onClose={onCancel}
      width={960}
      data-testid="filter-dialog"
      footer={
        <div className={styles.dialogFooter}>
          <Button
            variant="link"
            onClick={() => {
              setBlocks([]);
              setRows([]);
            }}
            data-testid="filter-reset-form"
          >
            Сбросить настройки
          </Button>
          <span className={styles.grow} />
          {tooMany ? (
            <span className={styles.fieldError} role="alert" data-testid="filter-too-many">
              Не больше {FILTER_LIMITS.rules} условий
            </span>
          ) : null}
          <Button onClick={onCancel} data-testid="filter-cancel">
            Отменить
          </Button>
          <Button variant="primary" disabled={tooMany} onClick={() => onApply(blocks, rowsToRules(rows))} data-testid="filter-apply">
            Применить
          </Button>
        </div>
      }
    >
      <div className={styles.dialog}>
        <nav className={styles.menu} aria-label="Разделы">
          <input
            className={styles.menuSearch}
            type="search"
            placeholder="Введите название раздела"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            data-testid="filter-menu-search"
          />
          <div className={styles.menuList}>
            {menu.map((section) => (
              <section key={section.title} className={styles.menuSection}>
                <h3 className={styles.menuTitle}>{section.title}</h3>
                {section.items.map((i) => {
                  const active = blocks.some((b) => b.key === i.key);
                  return (
                    <button
                      key={i.key}
                      type="button"
                      className={active ? `${styles.menuItem} ${styles.menuItemActive}` : styles.menuItem}
                      aria-pressed={active}
                      onClick={() => add(i.key)}
                      data-testid="filter-menu-item"
                      data-key={i.key}
                    >
                      {i.title}
                    </button>
                  );
                })}
              </section>
            ))}
            {metricItems.length > 0 ? (
              <section className={styles.menuSection}>
                <h3 className={styles.menuTitle}>Показатели</h3>
                {metricItems.map((m) => (
                  <button key={m} type="button" className={styles.menuItem} onClick={() => addMetric(m)} data-testid="filter-menu-metric" data-key={m}>
                    {METRIC_INFO[m].title}
                  </button>
                ))}
              </section>
            ) : null}
            {menu.length === 0 && metricItems.length === 0 ? <p className={styles.valueNote}>По вашему запросу ничего не найдено</p> : null}
          </div>
        </nav>
        <div className={styles.blocks} data-testid="filter-blocks">
          {blocks.length === 0 && rows.length === 0 ? (
            <div className={styles.emptyBlocks}>
              <p className={styles.emptyTitle}>Параметры не выбраны</p>
              <p className={styles.emptyText}>Пока не выбрана ни одна группа параметров</p>
            </div>
          ) : (
            <>
              {blocks.map((block, index) => (
                <BlockEditor key={block.key} projectId={projectId} period={period} block={block} onChange={(b) => setBlock(index, b)} />
              ))}
              {rows.length > 0 ? <MetricRows rows={rows} onChange={setRows} /> : null}
            </>
          )}
        </div>
      </div>
    </Modal>
  );
}

interface BlockEditorProps {
  readonly projectId: string;
  readonly period: { readonly start: string; readonly end: string };
  readonly block: FilterBlock;
  /** null: the block is removed */
  readonly onChange: (block: FilterBlock | null) => void;
}

/** One dimension's filter: its rules, «Добавить условие» below the type's limit. */
function BlockEditor({ projectId, period, block, onChange }: BlockEditorProps) {
  const item = filterItem(block.key);
  const limit = RULE_LIMITS[block.type];
  const setRule = (index: number, rule: FormRule | null) => {
    const rules = rule === null ? block.rules.filter((_, i) => i !== index) : block.rules.map((r, i) => (i === index ? rule : r));
    onChange(rules.length === 0 ? null : { ...block, rules });
  };
  return (
    <section className={styles.block} data-testid="filter-block" data-key={block.key}>
      <header className={styles.blockHead}>
        <h3 className={styles.blockTitle}>{item.title}</h3>
        <button type="button" className={styles.remove} onClick={() => onChange(null)} aria-label={`Убрать ${item.title}`} data-testid="filter-block-remove">
          ×
        </button>
      </header>
      {block.rules.map((rule, index) => (
        <div key={index} className={styles.rule} data-testid="filter-rule">
          {index > 0 ? <span className={styles.and}>и</span> : null}
          <RuleEditor projectId={projectId} period={period} dimension={block.key} single={block.type === 'radio'} rule={rule} onChange={(r) => setRule(index, r)} />
          {block.rules.length > 1 ? (
            <button type="button" className={styles.remove} onClick={() => setRule(index, null)} aria-label="Убрать условие">
              ×
            </button>
          ) : null}
        </div>
      ))}
      {block.rules.length < limit ? (
        <button type="button" className={styles.addRule} onClick={() => onChange({ ...block, rules: [...block.rules, emptyRule(block.type)] })} data-testid="filter-add-rule">
          + Добавить условие
        </button>
      ) : null}
    </section>
  );
}

interface RuleEditorProps {
  readonly projectId: string;
  readonly period: { readonly start: string; readonly end: string };
  readonly dimension: string;
  readonly single: boolean;
  readonly rule: FormRule;
  readonly onChange: (rule: FormRule) => void;
}

function OpSwitch({ value, onChange }: { readonly value: FormOp; readonly onChange: (op: FormOp) => void }) {
  return (
    <div className={styles.ops} role="group" aria-label="Условие">
      {(['AND', 'OR', 'NOT'] as const).map((op) => (
        <button key={op} type="button" aria-pressed={op === value} className={op === value ? `${styles.op} ${styles.opActive}` : styles.op} onClick={() => onChange(op)} data-op={op}>
          {OP_LABELS[op]}
        </button>
      ))}
    </div>
  );
}

function RuleEditor({ projectId, period, dimension, single, rule, onChange }: RuleEditorProps) {
  switch (rule.kind) {
    case 'choice':
      return (
        <div className={styles.ruleBody}>
          {single ? null : <OpSwitch value={rule.op} onChange={(op) => onChange({ ...rule, op })} />}
          <ValueList projectId={projectId} dimension={dimension} period={period} chosen={rule.values} single={single} onChange={(values) => onChange({ ...rule, values })} />
        </div>
      );
    case 'text':
      return (
        <div className={styles.ruleBody}>
          <OpSwitch value={rule.op} onChange={(op) => onChange({ ...rule, op })} />
          <textarea
            className={styles.textarea}
            rows={3}
            value={rule.text}
            maxLength={FILTER_LIMITS.values * (FILTER_LIMITS.valueLength + 1)}
            placeholder="Одно значение в строке"
            onChange={(e) => onChange({ ...rule, text: e.target.value })}
            data-testid="filter-textarea"
          />
          <p className={styles.hint}>* заменяет любое количество символов; @ в начале делает поиск нечувствительным к регистру</p>
        </div>
      );
    case 'event':
      return <EventRule projectId={projectId} period={period} rule={rule} onChange={onChange} />;
    case 'number':
      return (
        <div className={`${styles.ruleBody} ${styles.numberRule}`}>
          <select value={rule.op} onChange={(e) => onChange({ ...rule, op: COMPARISONS.find((c) => c === e.target.value) ?? '>' })} aria-label="Сравнение" data-testid="filter-comparison">
            {COMPARISONS.map((c: Comparison) => (
              <option key={c} value={c}>
                {COMPARISON_WORDS[c]}
              </option>
            ))}
          </select>
          <input
            className={styles.number}
            inputMode="numeric"
            value={rule.value}
            // §5: whole numbers, minimum 0: anything but digits is not typed.
            onChange={(e) => onChange({ ...rule, value: e.target.value.replace(/\D/g, '').slice(0, 15) })}
            aria-label="Число"
            data-testid="filter-number"
          />
        </div>
      );
  }
}

type EventRuleValue = Extract<FormRule, { kind: 'event' }>;

/**
 * An event filter: the class (the first one listed until another is chosen), then names of that
 * class from `filter/events` (200 a page; the api leaves out the classes rec and tech).
 */
function EventRule({ projectId, period, rule, onChange }: { readonly projectId: string; readonly period: { readonly start: string; readonly end: string }; readonly rule: EventRuleValue; readonly onChange: (rule: FormRule) => void }) {
  const [classes, setClasses] = useState<readonly string[] | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    fetchFilterValues(projectId, 'events', { date_start: period.start, date_end: period.end, offset: 0 }, { signal: controller.signal }).then(
      (page) => setClasses(page.data.map((o) => String(o.value))),
      () => setClasses([]),
    );
    return () => controller.abort();
  }, [projectId, period.start, period.end]);
  const first = classes?.[0];
  useEffect(() => {
    if (!rule.eventClass && first !== undefined) onChange({ ...rule, eventClass: first });
  }, [rule, first, onChange]);
  if (classes === null) return <p className={styles.valueNote}>Загрузка…</p>;
  if (classes.length === 0) return <p className={styles.valueNote}>Нет данных для отображения</p>;
  return (
    <div className={styles.ruleBody}>
      <select
        className={styles.classSelect}
        value={rule.eventClass}
        onChange={(e) => onChange({ kind: 'event', eventClass: e.target.value, values: [] })}
        aria-label="Класс события"
        data-testid="filter-event-class"
      >
        {classes.map((c) => (
          <option key={c} value={c}>
            {eventClassTitle(c)}
          </option>
        ))}
      </select>
      {rule.eventClass ? (
        <ValueList
          key={rule.eventClass}
          projectId={projectId}
          dimension="events"
          parents={[rule.eventClass]}
          period={period}
          chosen={rule.values}
          single={false}
          onChange={(values) => onChange({ ...rule, values })}
        />
      ) : null}
    </div>
  );
}

const METRIC_WORDS: Readonly<Record<(typeof METRIC_OPERATORS)[number], string>> = { '>': 'больше', '<': 'меньше', '=': 'равно' };

/** The metric filters: a row per rule, compared with each row of the table (§4 "Table filter"). */
function MetricRows({ rows, onChange }: { readonly rows: readonly MetricRow[]; readonly onChange: (rows: MetricRow[]) => void }) {
  const set = (index: number, row: MetricRow | null) => onChange(row === null ? rows.filter((_, i) => i !== index) : rows.map((r, i) => (i === index ? row : r)));
  return (
    <section className={styles.block} data-testid="filter-metrics">
      <header className={styles.blockHead}>
        <h3 className={styles.blockTitle}>Показатели</h3>
      </header>
      {rows.map((row, index) => (
        <div key={index} className={`${styles.rule} ${styles.numberRule}`} data-testid="filter-metric-rule" data-key={row.key}>
          <span className={styles.metricName}>{METRIC_INFO[row.key].title}</span>
          <select value={row.op} onChange={(e) => set(index, { ...row, op: METRIC_OPERATORS.find((o) => o === e.target.value) ?? '>' })} aria-label="Сравнение" data-testid="filter-metric-op">
            {METRIC_OPERATORS.map((op) => (
              <option key={op} value={op}>
                {METRIC_WORDS[op]}
              </option>
            ))}
          </select>
          <input
            className={styles.number}
            value={row.text}
            inputMode="decimal"
            placeholder={METRIC_INFO[row.key].unit === 'seconds' ? 'мм:сс' : ''}
            onChange={(e) => set(index, { ...row, text: maskMetricText(row.key, e.target.value) })}
            aria-label="Значение"
            data-testid="filter-metric-value"
          />
          <button type="button" className={styles.remove} onClick={() => set(index, null)} aria-label="Убрать условие">
            ×
          </button>
        </div>
      ))}
    </section>
  );
}

/**
 * «Детализация» of a conversion (spec 002 §2): the table by the chosen dimensions, sorted and
 * paged by the api, 'итого: {number}' rows, «Скачать в CSV» and «Настройка сводной таблицы».
 */
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  CONVERSION_DIMENSION_TITLES,
  CONVERSION_METRIC_TITLES,
  CONVERSION_TABLE_DIMENSIONS,
  CONVERSION_TABLE_METRICS,
  CONVERSION_TABLE_PAGE,
  type ConversionTableDimension,
  type ConversionTableRow,
} from '@stat/schemas/conversions';
import { Modal } from '../../components/Modal';
import { Badge, Button, Checkbox } from '../../components/ui';
import { calls, type ConversionTableRequest } from '../../data/calls';
import { formatInteger } from '../../lib/format';
import { useRequest } from '../../lib/hooks';
import { CsvDownload } from '../../reports/framework/CsvDownload';
import { parseOffset, writeSort } from '../../reports/framework/query';
import { ReportTable, type ReportTableColumn, type ReportTableRow } from '../../reports/framework/ReportTable';
import { CONVERSION_PAGE_TEXTS as T, conversionText, DEFAULT_TABLE_SORT, readDimensions, readSort, TABLE_PARAMS, type TableSort } from './conversionState';
import type { WidgetQuery } from './ConversionWidgets';
import styles from './Conversions.module.css';


/** The metric columns: the goal's units, the denominator's, the conversion in percent. */
const COLUMNS: readonly ReportTableColumn[] = CONVERSION_TABLE_METRICS.map((m) => ({ name: m, title: CONVERSION_METRIC_TITLES[m], unit: m === 'conversion' ? 'percent' : 'count' }));

const isDimension = (name: string): name is ConversionTableDimension => (CONVERSION_TABLE_DIMENSIONS as readonly string[]).includes(name);

/** A click on a column: the sorted one flips, another starts ascending (a dimension) or descending (a metric). */
function nextSort(current: TableSort, column: TableSort['name']): TableSort {
  if (current.name === column) return { name: column, order: current.order === 'asc' ? 'desc' : 'asc' };
  return { name: column, order: isDimension(column) ? 'asc' : 'desc' };
}

const labelOf = (row: ConversionTableRow, dimensions: readonly ConversionTableDimension[]): string => dimensions.map((d) => row.titles[d] ?? '').join(' / ');

/** The table section of a conversion's report. */
export function ConversionDetails({ query, title }: { readonly query: WidgetQuery; readonly title: string }) {
  const { projectId, conversionId, span, attribution, window, sample } = query;
  const [params, setParams] = useSearchParams();
  const dimensions = readDimensions(params.get(TABLE_PARAMS.dimensions));
  const sort = readSort(params.get(TABLE_PARAMS.sort), dimensions);
  const offset = parseOffset(params.get(TABLE_PARAMS.offset), CONVERSION_TABLE_PAGE);
  const [settings, setSettings] = useState<readonly ConversionTableDimension[] | null>(null);
  /** Another table: its parameters in the URL; a new sort or dimensions start from the first page. */
  const setTable = (changes: { dimensions?: readonly ConversionTableDimension[]; sort?: TableSort; offset?: number }) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (changes.dimensions) next.set(TABLE_PARAMS.dimensions, changes.dimensions.join(','));
      if (changes.sort) next.set(TABLE_PARAMS.sort, writeSort(changes.sort));
      if (changes.offset) next.set(TABLE_PARAMS.offset, String(changes.offset));
      else next.delete(TABLE_PARAMS.offset);
      return next;
    });

  const body: ConversionTableRequest = {
    conversion_id: conversionId,
    date_start: span.start,
    date_end: span.end,
    ...(attribution ? { attribution } : {}),
    ...(window ? { attribution_window: window } : {}),
    dimensions,
    sort,
    sample,
  };
  const bodyKey = JSON.stringify(body);
  const setOffset = (next: number) => setTable({ offset: next });
  const table = useRequest(`conversion-table:${projectId}:${bodyKey}:${offset}`, (signal) =>
    calls.conversionTable(projectId, { ...body, limit: CONVERSION_TABLE_PAGE, offset }, { signal }),
  );
  const answer = table.data;
  const rows: ReportTableRow[] | undefined = answer?.data.map((row) => ({
    id: JSON.stringify(answer.dimensions.map((d) => row[d])),
    label: labelOf(row, answer.dimensions),
    metrics: [row.numerator, row.denominator, row.conversion],
  }));

  const onSort = (column: string) => {
    if (!isDimension(column) && !(CONVERSION_TABLE_METRICS as readonly string[]).includes(column)) return;
    setTable({ sort: nextSort(sort, column as TableSort['name']) });
  };
  const save = () => {
    if (!settings || settings.length === 0) return;
    const chosen = CONVERSION_TABLE_DIMENSIONS.filter((d) => settings.includes(d));
    // A sort by a dimension no longer shown goes back to the goal's units.
    setTable({ dimensions: chosen, ...(isDimension(sort.name) && !chosen.includes(sort.name) ? { sort: DEFAULT_TABLE_SORT } : {}) });
    setSettings(null);
  };

  return (
    <section className={`${styles.panel} ${styles.details}`} data-testid="conversion-details">
      <div className={styles.detailsHead}>
        <h2 className={styles.panelTitle}>
          {T.details} <Badge tone="accent">{T.detailsLabel}</Badge>
        </h2>
        {answer ? (
          <span className={styles.muted} data-testid="conversion-table-count">
            итого: {formatInteger(answer.meta.total)}
          </span>
        ) : null}
        <div className={styles.detailsTools}>
          <CsvDownload
            label={T.csv}
            hasData={(answer?.meta.total ?? 0) > 0}
            reportTitle={`Конверсия: ${title}`}
            period={span}
            download={() => calls.conversionCsv(projectId, body)}
            fallbackName={`conversion_${span.start}_${span.end}.csv`}
          />
          <Button size="s" onClick={() => setSettings(dimensions)} data-testid="conversion-table-settings">
            {T.settings}
          </Button>
        </div>
      </div>
      <ReportTable
        titleHeader={dimensions.map((d) => CONVERSION_DIMENSION_TITLES[d]).join(' / ')}
        titleColumn={dimensions[0]!}
        metrics={COLUMNS}
        formatValue={(value, column) => (column.name === 'conversion' ? conversionText(value) : formatInteger(value))}
        rows={rows}
        totals={answer ? [answer.totals.numerator, answer.totals.denominator, answer.totals.conversion] : undefined}
        sort={answer?.meta.sort ?? sort}
        onSort={onSort}
        loading={table.loading}
        expectedRows={CONVERSION_TABLE_PAGE}
        paging={{ offset, pageSize: CONVERSION_TABLE_PAGE, total: answer?.meta.total, onOffset: setOffset }}
        testId="conversion-table"
        totalsTestId="conversion-table-total"
      />
      {settings ? (
        <Modal
          title={T.settings}
          onClose={() => setSettings(null)}
          data-testid="conversion-table-dialog"
          footer={
            <>
              <Button onClick={() => setSettings(null)}>{T.cancel}</Button>
              <Button variant="primary" disabled={settings.length === 0} onClick={save} data-testid="conversion-table-save">
                {T.save}
              </Button>
            </>
          }
        >
          <div className={styles.settingsList}>
            {CONVERSION_TABLE_DIMENSIONS.map((d) => (
              <Checkbox
                key={d}
                checked={settings.includes(d)}
                onChange={(on) => setSettings((current) => (current === null ? current : on ? [...current, d] : current.filter((x) => x !== d)))}
                data-testid={`conversion-dimension-${d}`}
              >
                {CONVERSION_DIMENSION_TITLES[d]}
              </Checkbox>
            ))}
          </div>
        </Modal>
      ) : null}
    </section>
  );
}

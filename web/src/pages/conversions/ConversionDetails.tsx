/**
 * «Детализация» of a conversion (spec 002 §2): the table by the chosen dimensions, sorted and
 * paged by the api, 'итого: {number}' rows, «Скачать в CSV» and «Настройка сводной таблицы».
 */
import { useState } from 'react';
import {
  CONVERSION_DIMENSION_TITLES,
  CONVERSION_METRIC_TITLES,
  CONVERSION_TABLE_DIMENSIONS,
  CONVERSION_TABLE_METRICS,
  CONVERSION_TABLE_PAGE,
  type ConversionTableDimension,
  type ConversionTableMetric,
  type ConversionTableRow,
} from '@stat/schemas/conversions';
import { Modal } from '../../components/Modal';
import { Badge, Button, Checkbox } from '../../components/ui';
import { calls, type ConversionTableRequest } from '../../data/calls';
import { formatInteger } from '../../lib/format';
import { useRequest } from '../../lib/hooks';
import { CsvDownload } from '../../reports/framework/CsvDownload';
import { ReportTable, type ReportTableColumn, type ReportTableRow } from '../../reports/framework/ReportTable';
import { CONVERSION_PAGE_TEXTS as T, conversionText } from './conversionState';
import type { WidgetQuery } from './ConversionWidgets';
import styles from './Conversions.module.css';

type SortName = ConversionTableDimension | ConversionTableMetric;

/** The metric columns: the goal's units, the denominator's, the conversion in percent. */
const COLUMNS: readonly ReportTableColumn[] = CONVERSION_TABLE_METRICS.map((m) => ({ name: m, title: CONVERSION_METRIC_TITLES[m], unit: m === 'conversion' ? 'percent' : 'count' }));

const isDimension = (name: string): name is ConversionTableDimension => (CONVERSION_TABLE_DIMENSIONS as readonly string[]).includes(name);

/** A click on a column: the sorted one flips, another starts ascending (a dimension) or descending (a metric). */
export function nextSort(current: { name: SortName; order: 'asc' | 'desc' }, column: SortName): { name: SortName; order: 'asc' | 'desc' } {
  if (current.name === column) return { name: column, order: current.order === 'asc' ? 'desc' : 'asc' };
  return { name: column, order: isDimension(column) ? 'asc' : 'desc' };
}

const labelOf = (row: ConversionTableRow, dimensions: readonly ConversionTableDimension[]): string => dimensions.map((d) => row.titles[d] ?? '').join(' / ');

/** The table section of a conversion's report. */
export function ConversionDetails({ query, title }: { readonly query: WidgetQuery; readonly title: string }) {
  const { projectId, conversionId, span, attribution, window } = query;
  const [dimensions, setDimensions] = useState<readonly ConversionTableDimension[]>([CONVERSION_TABLE_DIMENSIONS[0]]);
  const [sort, setSort] = useState<{ name: SortName; order: 'asc' | 'desc' }>({ name: 'numerator', order: 'desc' });
  const [settings, setSettings] = useState<readonly ConversionTableDimension[] | null>(null);

  const body: ConversionTableRequest = {
    conversion_id: conversionId,
    date_start: span.start,
    date_end: span.end,
    ...(attribution ? { attribution } : {}),
    ...(window ? { attribution_window: window } : {}),
    dimensions,
    sort,
  };
  // A page of this table: another period, model or sort starts from the first.
  const bodyKey = JSON.stringify(body);
  const [page, setPage] = useState({ key: bodyKey, offset: 0 });
  const offset = page.key === bodyKey ? page.offset : 0;
  const setOffset = (next: number) => setPage({ key: bodyKey, offset: next });
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
    setSort((current) => nextSort(current, column as SortName));
  };
  const save = () => {
    if (!settings || settings.length === 0) return;
    const chosen = CONVERSION_TABLE_DIMENSIONS.filter((d) => settings.includes(d));
    setDimensions(chosen);
    // A sort by a dimension no longer shown goes back to the goal's units.
    if (isDimension(sort.name) && !chosen.includes(sort.name)) setSort({ name: 'numerator', order: 'desc' });
    setSettings(null);
  };

  return (
    <section className={styles.panel} data-testid="conversion-details">
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

import { useMemo } from 'react';
import { createColumnHelper, rowSortingFeature, tableFeatures, useTable } from '@tanstack/react-table';
import { formatInteger, formatNumber } from '../../lib/format';
import type { MetricUnit } from '@stat/schemas/catalogue';
import type { ReportSort } from './reportApi';
import styles from './ReportTable.module.css';
import { EmptyRow, PageButtons, SkeletonRows, SortHeaderRows, useServerSorting } from './tableParts';

/** One row as the table shows it. */
export interface ReportTableRow {
  readonly id: string;
  /** The text of the first column (a formatted date, a dimension value…). */
  readonly label: string;
  /** Values in the order of the table's metrics. */
  readonly metrics: readonly (number | null)[];
  /** A time bucket that has not begun yet: its zeros are shown as «—». */
  readonly future?: boolean;
}

/** A metric column: the catalogue's metrics (a ReportMetric), or a report's own (a conversion's sides). */
export interface ReportTableColumn {
  /** The column's sort name. */
  readonly name: string;
  readonly title: string;
  readonly unit: MetricUnit;
}

/** Props of {@link ReportTable}. */
export interface ReportTableProps {
  /** Header of the first column. */
  readonly titleHeader: string;
  /** Sort name of the first column (`date` for time buckets). */
  readonly titleColumn: string;
  readonly metrics: readonly ReportTableColumn[];
  /** How a value shows (default: formatNumber). */
  readonly formatValue?: (value: number | null, column: ReportTableColumn) => string;
  /** Rows of the current page; undefined until the first answer. */
  readonly rows: readonly ReportTableRow[] | undefined;
  /** Totals over the whole period, in the order of `metrics`. */
  readonly totals: readonly (number | null)[] | undefined;
  /** The sort the server applied. */
  readonly sort: ReportSort | undefined;
  readonly onSort: (column: string) => void;
  /** A newer answer is on its way (rows are dimmed, not removed). */
  readonly loading: boolean;
  /** Rows to reserve while nothing has loaded, so the page does not jump. */
  readonly expectedRows: number;
  readonly paging: {
    readonly offset: number;
    readonly pageSize: number;
    readonly total: number | undefined;
    readonly onOffset: (offset: number) => void;
  };
  readonly testId?: string;
  readonly totalsTestId?: string;
}

const features = tableFeatures({ rowSortingFeature });
const helper = createColumnHelper<typeof features, ReportTableRow>();

/**
 * A report table: a title column and metric columns, the totals row («Итого») under the header,
 * sorting and paging done by the server (STYLE: headless tables, sorting and paging on the server).
 */
export function ReportTable(props: ReportTableProps) {
  const { titleHeader, titleColumn, metrics, rows, totals, sort, onSort, loading, expectedRows, paging, formatValue = (value) => formatNumber(value) } = props;
  const metricKey = metrics.map((m) => `${m.name}:${m.title}`).join('|');

  const columns = useMemo(
    () =>
      helper.columns([
        helper.accessor('label', { id: titleColumn, header: titleHeader }),
        ...metrics.map((m, i) => helper.accessor((row) => row.metrics[i] ?? null, { id: m.name, header: m.title })),
      ]),
    // metricKey stands for metrics.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [metricKey, titleColumn, titleHeader],
  );
  const serverSorting = useServerSorting(sort);
  const data = useMemo(() => rows ?? [], [rows]);

  const table = useTable({
    features,
    columns,
    data,
    getRowId: (row) => row.id,
    ...serverSorting,
  });

  const skeletonRows = rows ? 0 : Math.max(1, Math.min(expectedRows, paging.pageSize));
  const total = paging.total;
  const pages = total !== undefined && total > paging.pageSize;

  return (
    <div className={styles.wrap}>
      <table className={loading && rows ? `${styles.table} ${styles.loading}` : styles.table} data-testid={props.testId} aria-busy={loading}>
        <colgroup>
          <col className={styles.titleCol} />
          {metrics.map((m) => (
            <col key={m.name} />
          ))}
        </colgroup>
        <thead>
          <SortHeaderRows groups={table.getHeaderGroups()} onSort={onSort} classes={styles} label={(header) => <table.FlexRender header={header} />} />
          <tr className={styles.totals} data-testid={props.totalsTestId}>
            <th scope="row" className={styles.titleCell}>
              Итого
            </th>
            {metrics.map((m, i) => {
              const value = totals?.[i];
              return (
                <td key={m.name} className={styles.metricCell} data-metric={m.name} data-value={value ?? undefined} title={value == null ? undefined : formatInteger(value)}>
                  {totals ? formatValue(value ?? null, m) : <span className={`skeleton ${styles.skeletonNumber}`} />}
                </td>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id} className={row.original.future ? styles.future : undefined}>
              {row.getAllCells().map((cell, i) => {
                if (i === 0) {
                  return (
                    <th key={cell.id} scope="row" className={styles.titleCell}>
                      {row.original.label}
                    </th>
                  );
                }
                const value = cell.getValue() as number | null;
                return (
                  <td key={cell.id} className={styles.metricCell} data-metric={cell.column.id} data-value={value ?? undefined} title={value == null ? undefined : formatInteger(value)}>
                    {row.original.future ? '—' : formatValue(value, metrics[i - 1]!)}
                  </td>
                );
              })}
            </tr>
          ))}
          <SkeletonRows count={skeletonRows} metrics={metrics} classes={styles} />
          {rows && rows.length === 0 ? <EmptyRow columns={metrics.length + 1} /> : null}
        </tbody>
      </table>
      {pages ? <Pager offset={paging.offset} pageSize={paging.pageSize} total={total} onOffset={paging.onOffset} /> : null}
    </div>
  );
}

interface PagerProps {
  readonly offset: number;
  readonly pageSize: number;
  readonly total: number;
  readonly onOffset: (offset: number) => void;
}

/** «Строки 1–90 из 720» with previous and next page buttons. */
function Pager({ offset, pageSize, total, onOffset }: PagerProps) {
  const last = Math.min(offset + pageSize, total);
  return (
    <div className={styles.pager} data-testid="table-pager">
      <span>
        Строки {formatInteger(offset + 1)}–{formatInteger(last)} из {formatInteger(total)}
      </span>
      <PageButtons offset={offset} pageSize={pageSize} lastPage={last >= total} onOffset={onOffset} />
    </div>
  );
}

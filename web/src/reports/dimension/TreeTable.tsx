import { useMemo } from 'react';
import { createColumnHelper, rowSortingFeature, tableFeatures, useTable } from '@tanstack/react-table';
import { EMPTY_TITLE, type TableRow } from '@stat/schemas/reports';
import { formatInteger, formatMetric } from '../../lib/format';
import { paletteColor } from '../../lib/palette';
import type { ReportSort } from '../framework/reportApi';
import type { ReportMetric } from '../view';
import { AddressLink } from '../../components/AddressLink';
import { originOf, sharedOrigin } from './addresses';
import { PAGE_SIZES, TITLE_COLUMN } from './state';
import { EmptyRow, PageButtons, SkeletonRows, SortHeaderRows, useServerSorting } from '../framework/tableParts';
import styles from './TreeTable.module.css';


/** A row of the table as shown: a data row at its depth, or the «Показать ещё» row of a level. */
export type TreeItem =
  | {
      readonly kind: 'row';
      readonly id: string;
      readonly row: TableRow;
      readonly depth: number;
      readonly expanded: boolean;
      /** Its children are being fetched. */
      readonly expanding: boolean;
    }
  | {
      readonly kind: 'more';
      readonly id: string;
      /** The row whose children these are. */
      readonly parentId: string;
      readonly depth: number;
      readonly shown: number;
      readonly total: number;
      readonly loading: boolean;
    };

/** Props of {@link TreeTable}. */
export interface TreeTableProps {
  /** Header of the first column (the drill-down's dimensions). */
  readonly titleHeader: string;
  readonly metrics: readonly ReportMetric[];
  /** Rows in display order (children under their parents); undefined until the first answer. */
  readonly items: readonly TreeItem[] | undefined;
  /** Totals over the whole report, in the order of `metrics`. */
  readonly totals: readonly (number | null)[] | undefined;
  /** The sort the server applied. */
  readonly sort: ReportSort | undefined;
  readonly onSort: (column: string) => void;
  /** Palette index of each row drawn as a line. */
  readonly lineColors: ReadonlyMap<string, number>;
  /** Draws a row as a graph line; left out, the rows have no line checkboxes (a page without a graph). */
  readonly onToggleLine?: (id: string) => void;
  readonly onToggleExpand: (id: string) => void;
  readonly onShowMore: (parentId: string) => void;
  /** A newer answer is on its way (rows are dimmed, not removed). */
  readonly loading: boolean;
  /** The page is narrow (body under 1275 px): the columns take the dense sizes whatever their number. */
  readonly compact?: boolean;
  readonly paging: {
    readonly offset: number;
    readonly limit: number;
    readonly total: number | undefined;
    readonly onOffset: (offset: number) => void;
    readonly onLimit: (limit: number) => void;
  };
  readonly testId?: string;
}

const features = tableFeatures({ rowSortingFeature });
const helper = createColumnHelper<typeof features, TreeItem>();

/** The title shown for a row: the api's, or «Не определено» when empty. */
function rowTitle(row: Pick<TableRow, 'extra' | 'title'>): string {
  const title = row.extra?.title ?? row.title;
  return title && title.trim() ? title : EMPTY_TITLE;
}

/**
 * The scheme and host all the table's row addresses share, left out of each row and of the graph's
 * legend (see addresses.ts); null when they do not share one.
 */
export function itemsOrigin(items: readonly TreeItem[] | undefined): string | null {
  return sharedOrigin((items ?? []).flatMap((item) => (item.kind === 'row' ? [rowTitle(item.row)] : [])));
}

/**
 * A row's title: a page address as a link to the page, without the scheme and host every row
 * shares and cut in its middle, so that its end (where pages differ) always shows; the full
 * address in the tooltip. Any other title as it is, cut at its end.
 */
function RowTitle({ title, origin }: { readonly title: string; readonly origin: string | null }) {
  if (originOf(title) === null) {
    return (
      <span className={title === EMPTY_TITLE ? `${styles.title} ${styles.undefinedTitle}` : styles.title} title={title}>
        {title}
      </span>
    );
  }
  return <AddressLink address={title} origin={origin} className={styles.title} />;
}

/**
 * The table of a dimension report (headless TanStack Table; sorting and paging on the server):
 * tree rows that expand with the arrow, their children indented under them with «Показать ещё»
 * when a level has more, a checkbox per row to draw it on the graph, the totals row («Итого»),
 * sortable headers and the pager.
 */
export function TreeTable(props: TreeTableProps) {
  const { titleHeader, metrics, items, totals, sort, onSort, lineColors, loading, paging } = props;
  const metricKey = metrics.map((m) => m.name).join('|');
  const columns = useMemo(
    () =>
      helper.columns([
        helper.accessor((item) => (item.kind === 'row' ? rowTitle(item.row) : ''), { id: TITLE_COLUMN, header: titleHeader }),
        ...metrics.map((m, i) =>
          helper.accessor((item) => (item.kind === 'row' ? (item.row.metrics[i] ?? null) : null), { id: m.name, header: m.title }),
        ),
      ]),
    // metricKey stands for metrics.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [metricKey, titleHeader],
  );
  const serverSorting = useServerSorting(sort);
  const data = useMemo(() => (items ? [...items] : []), [items]);
  const origin = useMemo(() => itemsOrigin(items), [items]);
  const dense = props.compact === true || metrics.length > 5;
  const widths = metrics.map((m) => metricColumnWidth(m.title, dense));
  // Past this width the table scrolls sideways rather than squeeze the titles to nothing.
  const minWidth = (dense ? DENSE_TITLE_MIN_WIDTH : TITLE_MIN_WIDTH) + widths.reduce((sum, w) => sum + w, 0);
  const table = useTable({
    features,
    columns,
    data,
    getRowId: (item) => item.id,
    ...serverSorting,
  });

  return (
    <div className={styles.wrap}>
      <div className={styles.scroll}>
        <table
          className={[styles.table, loading && items ? styles.loading : '', dense ? styles.dense : ''].filter(Boolean).join(' ')}
          style={{ minWidth }}
          data-testid={props.testId}
          aria-busy={loading}
        >
          <colgroup>
            <col />
            {metrics.map((m, i) => (
              <col key={m.name} style={{ width: widths[i] }} />
            ))}
          </colgroup>
          <thead>
            <SortHeaderRows groups={table.getHeaderGroups()} onSort={onSort} classes={styles} label={(header) => <table.FlexRender header={header} />} />
            <tr className={styles.totals} data-testid="report-totals">
              <th scope="row" className={styles.titleCell}>
                <span className={styles.totalsTitle}>Итого</span>
              </th>
              {metrics.map((m, i) => {
                const value = totals?.[i];
                return (
                  <td key={m.name} className={styles.metricCell} data-metric={m.name} data-value={value ?? undefined} title={value == null || m.unit !== 'count' ? undefined : formatInteger(value)}>
                    {totals ? formatMetric(value, m.unit) : <span className={`skeleton ${styles.skeletonNumber}`} />}
                  </td>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {table.getRowModel().rows.map((tableRow) => {
              const item = tableRow.original;
              if (item.kind === 'more') {
                return (
                  <tr key={item.id} className={styles.moreRow}>
                    <td colSpan={metrics.length + 1} style={{ paddingLeft: indent(item.depth) + 28 }}>
                      <button type="button" className={styles.more} onClick={() => props.onShowMore(item.parentId)} disabled={item.loading} data-testid="show-more" data-parent={item.parentId}>
                        {item.loading ? 'Загрузка…' : 'Показать ещё'}
                      </button>
                      <span className={styles.moreCount}>
                        {formatInteger(item.shown)} из {formatInteger(item.total)}
                      </span>
                    </td>
                  </tr>
                );
              }
              const color = lineColors.get(item.id);
              const selected = color !== undefined;
              const title = rowTitle(item.row);
              return (
                <tr key={item.id} className={selected ? styles.selectedRow : undefined} data-testid="report-row" data-row-id={item.id} data-level={item.depth}>
                  {tableRow.getAllCells().map((cell, i) => {
                    if (i === 0) {
                      return (
                        <th key={cell.id} scope="row" className={styles.titleCell}>
                          <span className={styles.titleInner} style={{ paddingLeft: indent(item.depth) }}>
                            {props.onToggleLine ? (
                              <input
                                type="checkbox"
                                className={styles.check}
                                checked={selected}
                                onChange={() => props.onToggleLine?.(item.id)}
                                aria-label={`Показать на графике: ${title}`}
                                style={selected ? { accentColor: paletteColor(color) } : undefined}
                                data-testid="line-toggle"
                              />
                            ) : null}
                            {item.row.can_be_expanded ? (
                              <button
                                type="button"
                                className={item.expanded ? `${styles.expand} ${styles.expanded}` : styles.expand}
                                onClick={() => props.onToggleExpand(item.id)}
                                aria-expanded={item.expanded}
                                aria-label={item.expanded ? 'Свернуть' : 'Развернуть'}
                                data-testid="row-expand"
                              >
                                {item.expanding ? <span className={styles.spinner} /> : <ExpandArrow />}
                              </button>
                            ) : (
                              <span className={styles.expandSpace} />
                            )}
                            <RowTitle title={title} origin={origin} />
                          </span>
                        </th>
                      );
                    }
                    const metric = metrics[i - 1];
                    const value = cell.getValue() as number | null;
                    return (
                      <td key={cell.id} className={styles.metricCell} data-metric={cell.column.id} data-value={value ?? undefined}>
                        {metric ? formatMetric(value, metric.unit) : null}
                      </td>
                    );
                  })}
                </tr>
              );
            })}
            {items ? null : <SkeletonRows count={Math.min(paging.limit, 10)} metrics={metrics} classes={styles} />}
            {items && items.length === 0 ? <EmptyRow columns={metrics.length + 1} testId="table-empty" /> : null}
          </tbody>
        </table>
      </div>
      <Pager {...paging} />
    </div>
  );
}

/** Narrowest the title column gets before the table scrolls sideways (narrower when dense). */
const TITLE_MIN_WIDTH = 240;
const DENSE_TITLE_MIN_WIDTH = 165;
/** Width of a metric column for its numbers (a count in the millions, a share with its «%»); narrower when dense. */
const METRIC_WIDTH = 104;
const DENSE_METRIC_WIDTH = 92;
/** A header's font size and a cell's side padding, as TreeTable.module.css sets them. */
const HEAD_FONT = { normal: 13, dense: 12 } as const;
const CELL_PADDING = { normal: 16, dense: 10 } as const;
/** The sort arrow beside a header's text, with its gap. */
const ARROW_SPACE = 16;
/** The width of a bold Cyrillic letter for each pixel of font size, rounded up (measured: «Авторизованные» at 13 px is 125 px). */
const LETTER_EM = 0.72;

/**
 * A metric column's width: its numbers' width, or more when the header's longest word and the
 * sort arrow need it. Headers wrap between words only (never inside one), so a column is never
 * narrower than its longest word; every header keeps its arrow.
 */
export function metricColumnWidth(title: string, dense: boolean): number {
  const kind = dense ? 'dense' : 'normal';
  const longest = Math.max(0, ...title.split(/\s+/).map((word) => word.length));
  const word = Math.ceil(longest * HEAD_FONT[kind] * LETTER_EM);
  return Math.max(dense ? DENSE_METRIC_WIDTH : METRIC_WIDTH, word + ARROW_SPACE + 2 * CELL_PADDING[kind]);
}

/** Indentation of a tree level, in pixels. */
function indent(depth: number): number {
  return depth * 24;
}

function ExpandArrow() {
  return (
    <svg viewBox="0 0 10 10" width="10" height="10" aria-hidden="true">
      <path d="M3.5 1.5 L7 5 L3.5 8.5" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** «Строк на странице: 10 25 50 100», «1–10 из 46» and the page buttons. */
function Pager({ offset, limit, total, onOffset, onLimit }: TreeTableProps['paging']) {
  const last = total === undefined ? offset + limit : Math.min(offset + limit, total);
  return (
    <div className={styles.pager} data-testid="table-pager">
      <span className={styles.pageSizes} role="group" aria-label="Строк на странице">
        Строк на странице:
        {PAGE_SIZES.map((size) => (
          <button
            key={size}
            type="button"
            className={size === limit ? `${styles.pageSize} ${styles.pageSizeActive}` : styles.pageSize}
            aria-pressed={size === limit}
            onClick={() => onLimit(size)}
            data-limit={size}
          >
            {size}
          </button>
        ))}
      </span>
      {total !== undefined && total > 0 ? (
        <span className={styles.range}>
          {formatInteger(offset + 1)}–{formatInteger(last)} из {formatInteger(total)}
        </span>
      ) : null}
      <PageButtons offset={offset} pageSize={limit} lastPage={total === undefined || last >= total} onOffset={onOffset} />
    </div>
  );
}

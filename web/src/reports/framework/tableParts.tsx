import { useMemo, type ReactNode } from 'react';
import type { SortingState } from '@tanstack/react-table';
import type { ReportSort } from './reportApi';
import parts from './tableParts.module.css';

type Direction = false | 'asc' | 'desc';

/**
 * The options of a TanStack table whose sort the server applies (STYLE: sorting and paging on the
 * server): it shows `sort` and never sorts its rows itself.
 */
export function useServerSorting(sort: ReportSort | undefined) {
  const sorting = useMemo<SortingState>(() => (sort ? [{ id: sort.name, desc: sort.order === 'desc' }] : []), [sort]);
  return { manualSorting: true, enableMultiSort: false, state: { sorting }, onSortingChange: () => undefined } as const;
}

/** Props of {@link SortHeader}. */
interface SortHeaderProps {
  /** The column's sort name, sent to `onSort`. */
  readonly column: string;
  readonly sorted: Direction;
  readonly onSort: (column: string) => void;
  /** The header cell's and its button's classes in the table's own module. */
  readonly className: string | undefined;
  readonly buttonClassName: string | undefined;
  /** The header's text. */
  readonly children: ReactNode;
}

/** A column header that sorts the table by its column on a click, with the sort arrow beside its text. */
function SortHeader({ column, sorted, onSort, className, buttonClassName, children }: SortHeaderProps) {
  return (
    <th scope="col" className={className} aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none'}>
      <button type="button" className={sorted ? `${buttonClassName} ${parts.sorted}` : buttonClassName} onClick={() => onSort(column)} data-column={column}>
        {children}
        <SortArrow direction={sorted} />
      </button>
    </th>
  );
}

/** What {@link SortHeaderRows} reads of a TanStack header. */
interface SortableHeader {
  readonly id: string;
  readonly column: { readonly id: string; getIsSorted(): Direction };
}

/** Props of {@link SortHeaderRows}. */
export interface SortHeaderRowsProps<H extends SortableHeader> {
  /** The table's header groups (`table.getHeaderGroups()`). */
  readonly groups: readonly { readonly id: string; readonly headers: readonly H[] }[];
  readonly onSort: (column: string) => void;
  /** The table's own module, for its `titleHead`, `metricHead` and `sort`. */
  readonly classes: CSSModuleClasses;
  /** A header's text (`<table.FlexRender header={header} />`). */
  readonly label: (header: H) => ReactNode;
}

/** The header rows of a report table: the title column's header first, then the metrics', each a {@link SortHeader}. */
export function SortHeaderRows<H extends SortableHeader>({ groups, onSort, classes, label }: SortHeaderRowsProps<H>) {
  return groups.map((group) => (
    <tr key={group.id}>
      {group.headers.map((header, i) => (
        <SortHeader key={header.id} column={header.column.id} sorted={header.column.getIsSorted()} onSort={onSort} className={i === 0 ? classes.titleHead : classes.metricHead} buttonClassName={classes.sort}>
          {label(header)}
        </SortHeader>
      ))}
    </tr>
  ));
}

function SortArrow({ direction }: { readonly direction: Direction }) {
  return (
    <svg className={parts.arrow} viewBox="0 0 10 10" width="10" height="10" aria-hidden="true">
      {direction === 'asc' ? <path d="M5 2 L8.5 7 H1.5 Z" fill="currentColor" /> : null}
      {direction === 'desc' ? <path d="M5 8 L8.5 3 H1.5 Z" fill="currentColor" /> : null}
      {direction === false ? <path d="M5 1.5 L7.5 4.2 H2.5 Z M5 8.5 L7.5 5.8 H2.5 Z" fill="currentColor" opacity="0.35" /> : null}
    </svg>
  );
}

/** Props of {@link SkeletonRows}. */
export interface SkeletonRowsProps {
  readonly count: number;
  readonly metrics: readonly { readonly name: string }[];
  /** The table's own module, for its `titleCell`, `skeletonTitle` and `skeletonNumber` (their sizes differ). */
  readonly classes: CSSModuleClasses;
}

/** Rows of grey bars that keep the table's height while nothing has loaded. */
export function SkeletonRows({ count, metrics, classes }: SkeletonRowsProps) {
  return Array.from({ length: count }, (_v, r) => (
    <tr key={`skeleton-${r}`} aria-hidden="true">
      <th scope="row" className={classes.titleCell}>
        <span className={`skeleton ${classes.skeletonTitle}`} />
      </th>
      {metrics.map((m) => (
        <td key={m.name} className={parts.metricCell}>
          <span className={`skeleton ${classes.skeletonNumber}`} />
        </td>
      ))}
    </tr>
  ));
}

/** The one row of a table without rows: «Нет данных для отображения» across its `columns`. */
export function EmptyRow({ columns, testId }: { readonly columns: number; readonly testId?: string }) {
  return (
    <tr>
      <td colSpan={columns} className={parts.empty} data-testid={testId}>
        Нет данных для отображения
      </td>
    </tr>
  );
}

/** Props of {@link PageButtons}. */
export interface PageButtonsProps {
  readonly offset: number;
  /** The rows of a page: how far a button moves the offset. */
  readonly pageSize: number;
  /** There is no next page (or its end is not known yet). */
  readonly lastPage: boolean;
  readonly onOffset: (offset: number) => void;
}

/** The pager's «‹» and «›»: the previous and the next page. */
export function PageButtons({ offset, pageSize, lastPage, onOffset }: PageButtonsProps) {
  return (
    <>
      <button type="button" className={parts.pageButton} disabled={offset === 0} onClick={() => onOffset(Math.max(0, offset - pageSize))} aria-label="Предыдущая страница">
        ‹
      </button>
      <button type="button" className={parts.pageButton} disabled={lastPage} onClick={() => onOffset(offset + pageSize)} aria-label="Следующая страница">
        ›
      </button>
    </>
  );
}

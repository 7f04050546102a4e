// @vitest-environment happy-dom
/** The rows of a page report: addresses without the host every row shares, the full one in the tooltip and link. */
import { afterEach, describe, expect, it } from 'vitest';
import type { TableRow } from '@stat/schemas/reports';
import { metricColumns } from '../view';
import { render, type Rendered } from '../../testing/render';
import { metricColumnWidth, TreeTable, type TreeItem } from './TreeTable';

let view: Rendered | null = null;
afterEach(() => {
  view?.unmount();
  view = null;
});

function row(title: string, visits: number): TreeItem {
  const data: TableRow = { id: JSON.stringify([title]), parent_id: null, level: 0, can_be_expanded: false, title, extra: { title }, metrics: [visits] };
  return { kind: 'row', id: data.id, row: data, depth: 0, expanded: false, expanding: false };
}

async function renderRows(titles: readonly string[]) {
  view = await render(
    <TreeTable
      titleHeader="Адрес страницы"
      metrics={metricColumns(['visits'])}
      items={titles.map((t, i) => row(t, 100 - i))}
      totals={[1000]}
      sort={{ name: 'visits', order: 'desc' }}
      onSort={() => undefined}
      lineColors={new Map()}
      onToggleExpand={() => undefined}
      onShowMore={() => undefined}
      loading={false}
      paging={{ offset: 0, limit: 10, total: titles.length, onOffset: () => undefined, onLimit: () => undefined }}
    />,
  );
  return [...view.container.querySelectorAll('[data-testid="report-row"] th')].map((th) => {
    const link = th.querySelector('a');
    return {
      text: th.textContent,
      tail: th.querySelector('[data-part="tail"]')?.textContent ?? null,
      tooltip: th.querySelector('[title]')?.getAttribute('title') ?? null,
      href: link?.getAttribute('href') ?? null,
    };
  });
}

describe('page addresses in a report table', () => {
  it('drop the scheme and host every row shares; the full address stays in the tooltip and the link', async () => {
    const rows = await renderRows(['https://demo.stat.example/', 'https://demo.stat.example/novosti/sport/', 'https://demo.stat.example/20261118-novaya-kollekciya-osen']);
    expect(rows).toEqual([
      { text: '/', tail: '/', tooltip: 'https://demo.stat.example/', href: 'https://demo.stat.example/' },
      { text: '/novosti/sport/', tail: '/sport/', tooltip: 'https://demo.stat.example/novosti/sport/', href: 'https://demo.stat.example/novosti/sport/' },
      {
        text: '/20261118-novaya-kollekciya-osen',
        tail: '8-novaya-kollekciya-osen',
        tooltip: 'https://demo.stat.example/20261118-novaya-kollekciya-osen',
        href: 'https://demo.stat.example/20261118-novaya-kollekciya-osen',
      },
    ]);
  });

  it('keep each host when the hosts differ, and leave titles that are not addresses as they are', async () => {
    const rows = await renderRows(['https://a.example/x', 'https://b.example/y', 'Не определено']);
    expect(rows.map((r) => [r.text, r.tail, r.href])).toEqual([
      ['https://a.example/x', '/x', 'https://a.example/x'],
      ['https://b.example/y', '/y', 'https://b.example/y'],
      ['Не определено', null, null],
    ]);
  });
});

describe('metric columns', () => {
  it('are as wide as their numbers, or as the longest word of the header with its arrow (headers wrap between words only)', () => {
    expect(
      ['Визиты', 'Посетители', 'Глубина просмотра', 'Авторизованные посетители'].map((title) => [metricColumnWidth(title, false), metricColumnWidth(title, true)]),
    ).toEqual([
      [105, 92],
      [142, 123],
      [133, 114],
      [180, 157],
    ]);
  });

  it('every header keeps its sort arrow, sorted or not, with more than five metrics too', async () => {
    view = await render(
      <TreeTable
        titleHeader="Источник"
        metrics={metricColumns(['visits', 'visitors', 'page_views', 'bounces', 'avg_view_depth', 'avg_sessions_duration', 'uid'])}
        items={[]}
        totals={undefined}
        sort={{ name: 'visits', order: 'desc' }}
        onSort={() => undefined}
        lineColors={new Map()}
        onToggleExpand={() => undefined}
        onShowMore={() => undefined}
        loading={false}
        paging={{ offset: 0, limit: 10, total: 0, onOffset: () => undefined, onLimit: () => undefined }}
      />,
    );
    const heads = [...view.container.querySelectorAll('thead tr:first-child th')];
    expect(heads.map((th) => th.querySelector('svg') !== null)).toEqual(heads.map(() => true));
    expect(heads).toHaveLength(8);
  });
});

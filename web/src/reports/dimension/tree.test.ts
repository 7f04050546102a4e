import { describe, expect, it } from 'vitest';
import type { TableRow } from '@stat/schemas/reports';
import { flattenTree, rowPath } from './tree';

function row(path: (string | number)[], canExpand = true): TableRow {
  const id = JSON.stringify(path);
  const title = String(path.at(-1));
  return {
    id,
    parent_id: path.length > 1 ? JSON.stringify(path.slice(0, -1)) : null,
    level: path.length - 1,
    can_be_expanded: canExpand,
    title,
    extra: { title },
    metrics: [1],
  };
}

describe('the tree of a dimension table', () => {
  const top = [row(['search']), row(['direct'])];

  it('puts open rows\' children under them, indented, with «Показать ещё» when the level has more', () => {
    const items = flattenTree(top, {
      '["search"]': { open: true, rows: [row(['search', 'yandex']), row(['search', 'google'])], total: 5, loading: false },
    });
    expect(items.map((i) => `${i.depth}:${i.kind}:${i.id}`)).toEqual([
      '0:row:["search"]',
      '1:row:["search","yandex"]',
      '1:row:["search","google"]',
      '1:more:["search"]#more',
      '0:row:["direct"]',
    ]);
    expect(items[3]).toMatchObject({ kind: 'more', parentId: '["search"]', shown: 2, total: 5 });
  });
  it('hides the children of a closed row, and shows no «Показать ещё» when all are there', () => {
    const children = { '["search"]': { open: false, rows: [row(['search', 'yandex'])], total: 1, loading: false } };
    expect(flattenTree(top, children).map((i) => i.id)).toEqual(['["search"]', '["direct"]']);
    const open = { '["search"]': { ...children['["search"]'], open: true } };
    expect(flattenTree(top, open).map((i) => i.id)).toEqual(['["search"]', '["search","yandex"]', '["direct"]']);
  });
  it('nests deeper levels', () => {
    const items = flattenTree(top, {
      '["search"]': { open: true, rows: [row(['search', 'yandex'])], total: 1, loading: false },
      '["search","yandex"]': { open: true, rows: [row(['search', 'yandex', 'погода'], false)], total: 1, loading: false },
    });
    expect(items.map((i) => i.depth)).toEqual([0, 1, 2, 0]);
  });
  it('marks a row whose first children are loading', () => {
    const items = flattenTree(top, { '["direct"]': { open: true, rows: [], total: 0, loading: true } });
    expect(items[1]).toMatchObject({ id: '["direct"]', expanded: true, expanding: true });
  });
  it('reads a row\'s path from its id, numbers kept', () => {
    expect(rowPath('["search","yandex"]')).toEqual(['search', 'yandex']);
    expect(rowPath('[2017370,12]')).toEqual([2017370, 12]);
    expect(() => rowPath('"x"')).toThrow();
  });
});

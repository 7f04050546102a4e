import { describe, expect, it } from 'vitest';
import type { ProjectList, ProjectListRow } from '@stat/schemas/projects';
import { testListRow } from '../../testing/fixtures';
import { hasMore, INITIAL_LIST, listReducer, listTotal, type ListState } from './listState';

const row = (id: number): ProjectListRow => testListRow(id);

const answer = (ids: number[], total: number, deleted = 0): ProjectList => ({
  data: ids.map(row),
  meta: { total_rows: total, deleted_rows: deleted, limit: 10, offset: 0 },
});

describe('the sites list state (spec 000 §3, §4)', () => {
  it('ignores answers to requests older than the latest (stale responses)', () => {
    let state: ListState = INITIAL_LIST;
    state = listReducer(state, { type: 'request', reqId: 1, more: false });
    state = listReducer(state, { type: 'request', reqId: 2, more: false });
    state = listReducer(state, { type: 'loaded', reqId: 2, more: false, answer: answer([2], 1) });
    state = listReducer(state, { type: 'loaded', reqId: 1, more: false, answer: answer([1, 3], 2) });
    expect(state.rows.map((r) => r.id)).toEqual([2]);
    expect(state.totalRows).toBe(1);
    expect(listReducer(state, { type: 'failed', reqId: 1 })).toBe(state);
  });

  it('appends further pages and offers more while fewer rows are shown than the total', () => {
    let state = listReducer(INITIAL_LIST, { type: 'request', reqId: 1, more: false });
    state = listReducer(state, { type: 'loaded', reqId: 1, more: false, answer: answer([1, 2], 3) });
    expect(hasMore(state, false)).toBe(true);
    state = listReducer(state, { type: 'request', reqId: 2, more: true });
    expect(state.rows).toHaveLength(2);
    state = listReducer(state, { type: 'loaded', reqId: 2, more: true, answer: answer([2, 3], 3) });
    expect(state.rows.map((r) => r.id)).toEqual([1, 2, 3]);
    expect(hasMore(state, false)).toBe(false);
  });

  it('delete moves a row: total_rows minus 1, deleted_rows plus 1; restore the reverse', () => {
    let state = listReducer(INITIAL_LIST, { type: 'request', reqId: 1, more: false });
    state = listReducer(state, { type: 'loaded', reqId: 1, more: false, answer: answer([1, 2], 2, 4) });
    state = listReducer(state, { type: 'moved', id: 1, from: 'active' });
    expect(state.rows.map((r) => r.id)).toEqual([2]);
    expect([state.totalRows, state.deletedRows]).toEqual([1, 5]);
    state = listReducer(state, { type: 'moved', id: 2, from: 'deleted' });
    expect([state.totalRows, state.deletedRows]).toEqual([2, 4]);
    expect(listReducer(state, { type: 'moved', id: 99, from: 'active' })).toBe(state);
  });

  it('the deleted list counts deleted rows', () => {
    const state = listReducer(listReducer(INITIAL_LIST, { type: 'request', reqId: 1, more: false }), { type: 'loaded', reqId: 1, more: false, answer: answer([1], 7, 1) });
    expect(listTotal(state, true)).toBe(1);
    expect(hasMore(state, true)).toBe(false);
    expect(hasMore(state, false)).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { Params } from './params.js';

describe('Params', () => {
  it('names each value by its order and types it, so that the SQL holds only placeholders', () => {
    const p = new Params();
    const sql = `project_id = ${p.add(7, 'UInt32')} AND url = ${p.add('/a', 'String')}`;
    expect({ sql, params: p.values }).toEqual({ sql: 'project_id = {p0:UInt32} AND url = {p1:String}', params: { p0: 7, p1: '/a' } });
  });
});

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AcceptedHit } from '@stat/schemas';
import { Spool } from './spool.js';

const hit = (n: number): AcceptedHit => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  at: 1_700_000_000_000 + n,
  ip: '127.0.0.1',
  ua: 'Agent/1',
  hit: { p: 7, t: 'pageview', u: 'https://a.ru/', r: '', ti: 'Заголовок', sw: 0, sh: 0, v: 'visitor01' },
});

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'stat-spool-'));
  dirs.push(dir);
  return dir;
}

describe('Spool: hits a stop could not store, kept for the next start', () => {
  it('writes nothing when nothing is left', () => {
    const dir = dataDir();
    expect(new Spool(dir).write([])).toBeNull();
    expect(new Spool(dir).read()).toEqual([]);
  });

  it('gives back the hits of each stop, oldest file first, until they are removed', () => {
    const dir = dataDir();
    const spool = new Spool(dir);
    const first = spool.write([hit(1), hit(2)])!;
    const second = spool.write([hit(3)])!;
    const read = new Spool(dir).read();
    expect(read.map((f) => f.hits)).toEqual([[hit(1), hit(2)], [hit(3)]]);
    expect(read.map((f) => f.file).sort()).toEqual([first, second].sort());
    spool.remove(first);
    expect(spool.read().map((f) => f.hits)).toEqual([[hit(3)]]);
  });

  it('sets aside a line that is not an accepted hit, with its reason, and keeps the rest', () => {
    const dir = dataDir();
    const spool = new Spool(dir);
    const file = spool.write([hit(1)])!;
    writeFileSync(file, readFileSync(file, 'utf8') + 'not json\n' + JSON.stringify({ ...hit(2), hit: { ...hit(2).hit, p: 2_147_483_648 } }) + '\n');
    expect(spool.read().map((f) => f.hits)).toEqual([[hit(1)]]);
    const rejected = readdirSync(join(dir, 'spool')).filter((name) => name.startsWith('rejected-'));
    expect(rejected).toHaveLength(1);
    const reasons = readFileSync(join(dir, 'spool', rejected[0]!), 'utf8').trim().split('\n').map((line) => (JSON.parse(line) as { reason: string }).reason);
    expect(reasons).toEqual(['body: Invalid input: expected object, received string', 'hit.p: must be at most 2147483647']);
  });
});

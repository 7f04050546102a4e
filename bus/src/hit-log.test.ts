import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeRecords, encodeRecords, HitLog } from './hit-log.js';

// Needs: a local directory (the log's files on disk).
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function newDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'stat-hitlog-'));
  dirs.push(dir);
  return dir;
}

const SEGMENT_BYTES = 1 << 20;

/** A new directory holding a log that appended these groups, one write each, and was closed. */
async function closedLog(groups: readonly string[][], segmentBytes = SEGMENT_BYTES): Promise<string> {
  const dir = newDir();
  const { log } = HitLog.open({ dir, segmentBytes });
  for (const group of groups) await log.append(group);
  await log.close();
  return dir;
}
const segmentsOf = (dir: string): string[] => readdirSync(dir).filter((f) => f.endsWith('.log')).sort();

describe('HitLog records', () => {
  it('reads back what it wrote, Cyrillic included', () => {
    const payloads = ['{"a":1}', '{"title":"Новости дня"}'];
    expect(decodeRecords(encodeRecords(payloads))).toEqual({ payloads, whole: encodeRecords(payloads).byteLength });
  });

  it('refuses an empty record, which would read as the end of the log', () => {
    expect(() => encodeRecords(['{"a":1}', ''])).toThrow(/empty/);
  });

  it('stops at a record whose bytes were changed (its checksum fails)', () => {
    const bytes = encodeRecords(['{"a":1}', '{"a":2}', '{"a":3}']);
    const second = 8 + 7;
    bytes[second + 8 + 3]! ^= 0x01;
    expect(decodeRecords(bytes)).toEqual({ payloads: ['{"a":1}'], whole: second });
  });
});

describe('HitLog on disk', () => {
  it('cuts a torn tail (the last record written in half by a crash) and goes on after the last whole record', async () => {
    const dir = newDir();
    const { log } = HitLog.open({ dir, segmentBytes: SEGMENT_BYTES });
    await log.append(['{"n":1}', '{"n":2}']);
    await log.append(['{"n":3}']);
    const [segment] = segmentsOf(dir);
    const file = join(dir, segment!);
    const whole = statSync(file).size;
    // The crash came in the middle of the third record's write.
    truncateSync(file, whole - 4);

    const { log: reopened, recovery } = HitLog.open({ dir, segmentBytes: SEGMENT_BYTES });
    expect(recovery.records).toEqual([
      { offset: 0, payload: '{"n":1}' },
      { offset: 1, payload: '{"n":2}' },
    ]);
    expect(recovery.tornBytes).toBe(8 + 7 - 4);
    expect(statSync(file).size).toBe(whole - 8 - 7);
    expect(await reopened.append(['{"n":4}'])).toBe(2);
    await reopened.close();
    expect(HitLog.open({ dir, segmentBytes: SEGMENT_BYTES }).recovery.records.map((r) => r.payload)).toEqual(['{"n":1}', '{"n":2}', '{"n":4}']);
  });

  it('cuts a tail of garbage (a header whose length runs past the end), never replays it', async () => {
    const dir = await closedLog([['{"n":1}']]);
    const file = join(dir, segmentsOf(dir)[0]!);
    appendFileSync(file, Buffer.from([0xff, 0xff, 0x00, 0x00, 1, 2, 3, 4, 5, 6]));
    const { recovery } = HitLog.open({ dir, segmentBytes: SEGMENT_BYTES });
    expect(recovery.records.map((r) => r.payload)).toEqual(['{"n":1}']);
    expect(recovery.tornBytes).toBe(10);
  });

  it('cuts a tail of zeros (a file the crash extended before its data reached the disk), never replays it as empty hits', async () => {
    const dir = await closedLog([['{"n":1}']]);
    const file = join(dir, segmentsOf(dir)[0]!);
    appendFileSync(file, Buffer.alloc(4096));
    const { log: reopened, recovery } = HitLog.open({ dir, segmentBytes: SEGMENT_BYTES });
    expect(recovery.records.map((r) => r.payload)).toEqual(['{"n":1}']);
    expect(recovery.tornBytes).toBe(4096);
    expect(await reopened.append(['{"n":2}'])).toBe(1);
    await reopened.close();
  });

  it('never hands out a released offset again, even when an operator removed every segment', async () => {
    const dir = newDir();
    const { log } = HitLog.open({ dir, segmentBytes: SEGMENT_BYTES });
    await log.append(['{"n":1}', '{"n":2}', '{"n":3}']);
    await log.release(2);
    await log.close();
    for (const segment of segmentsOf(dir)) rmSync(join(dir, segment));
    const { log: reopened, recovery } = HitLog.open({ dir, segmentBytes: SEGMENT_BYTES });
    expect(recovery.records).toEqual([]);
    expect(await reopened.append(['{"n":4}'])).toBe(3);
    await reopened.close();
    expect(HitLog.open({ dir, segmentBytes: SEGMENT_BYTES }).recovery.records).toEqual([{ offset: 3, payload: '{"n":4}' }]);
  });

  it('sets aside a damaged record inside an older segment, keeps the records before it and those of later segments', async () => {
    const dir = await closedLog([['{"n":1}', '{"n":2}'], ['{"n":3}']], 20);
    const [first] = segmentsOf(dir);
    const file = join(dir, first!);
    const bytes = readFileSync(file);
    bytes[8 + 7 + 8 + 2]! ^= 0x01;
    writeFileSync(file, bytes);
    const { recovery } = HitLog.open({ dir, segmentBytes: 20 });
    expect(recovery.records).toEqual([
      { offset: 0, payload: '{"n":1}' },
      { offset: 2, payload: '{"n":3}' },
    ]);
    expect(recovery.damaged).toEqual([`${first}.damaged`]);
    expect(recovery.tornBytes).toBe(0);
  });

  it('a failed write leaves the log whole: the next group follows the last whole record', async () => {
    const dir = newDir();
    const { log } = HitLog.open({ dir, segmentBytes: SEGMENT_BYTES });
    await log.append(['{"n":1}']);
    await log.close();
    await expect(log.append(['{"n":2}'])).rejects.toThrow(/closed/);
    const { log: reopened, recovery } = HitLog.open({ dir, segmentBytes: SEGMENT_BYTES });
    expect(recovery.records.map((r) => r.offset)).toEqual([0]);
    expect(await reopened.append(['{"n":2}'])).toBe(1);
    await reopened.close();
  });

  it('reads back from any offset, across segments, batch by batch, what appends made durable', async () => {
    const dir = newDir();
    const { log } = HitLog.open({ dir, segmentBytes: 40 });
    const payloads = Array.from({ length: 25 }, (_, i) => `{"n":${i}}`);
    for (let i = 0; i < payloads.length; i += 3) await log.append(payloads.slice(i, i + 3));
    expect(segmentsOf(dir).length).toBeGreaterThan(3);
    const read: string[] = [];
    for (let from = 0; ; ) {
      const batch = await log.read(from, 4);
      if (batch.length === 0) break;
      expect(batch.map((r) => r.offset)).toEqual(batch.map((_, i) => from + i));
      read.push(...batch.map((r) => r.payload));
      from = batch[batch.length - 1]!.offset + 1;
    }
    expect(read).toEqual(payloads);
    expect((await log.read(7, 3)).map((r) => r.payload)).toEqual(['{"n":7}', '{"n":8}', '{"n":9}']);
    expect(await log.read(25, 10)).toEqual([]);
    await log.append(['{"n":25}']);
    expect(await log.read(25, 10)).toEqual([{ offset: 25, payload: '{"n":25}' }]);
    await log.close();
  });

  it('opened without collecting, counts what is not released and reads it from the released offset on', async () => {
    const dir = newDir();
    const { log } = HitLog.open({ dir, segmentBytes: 40 });
    await log.append(['{"n":0}', '{"n":1}', '{"n":2}', '{"n":3}', '{"n":4}']);
    await log.release(1);
    await log.close();
    const { log: reopened, recovery } = HitLog.open({ dir, segmentBytes: 40, collect: false });
    expect(recovery.records).toEqual([]);
    expect(recovery.unreleased).toBe(3);
    expect(reopened.releasedThrough).toBe(1);
    expect((await reopened.read(reopened.releasedThrough + 1, 10)).map((r) => r.payload)).toEqual(['{"n":2}', '{"n":3}', '{"n":4}']);
    await reopened.close();
  });

  it('a record damaged on disk after the log was opened ends its segment for the reader, set aside, and reading goes on in the next', async () => {
    const dir = newDir();
    const { log } = HitLog.open({ dir, segmentBytes: 20 });
    await log.append(['{"n":0}', '{"n":1}']);
    await log.append(['{"n":2}']);
    const [first] = segmentsOf(dir);
    const file = join(dir, first!);
    const bytes = readFileSync(file);
    bytes[8 + 2]! ^= 0x01;
    writeFileSync(file, bytes);
    expect((await log.read(0, 10)).map((r) => r.payload)).toEqual(['{"n":2}']);
    expect(readdirSync(dir).filter((f) => f.includes('.damaged-at-'))).toEqual([`${first}.damaged-at-0`]);
    await log.close();
  });
});

describe('HitLog lock', () => {
  let child: ChildProcess | null = null;
  afterEach(() => {
    child?.kill('SIGKILL');
    child = null;
  });

  /** A live process other than this one, and its start time as Linux tells it. */
  function otherProcess(): { pid: number; started: string } {
    child = spawn('sleep', ['60'], { stdio: 'ignore' });
    const pid = child.pid!;
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return { pid, started: stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]! };
  }

  it('refuses a log that another live process holds, naming it', () => {
    const dir = newDir();
    const { pid, started } = otherProcess();
    writeFileSync(join(dir, 'lock'), `${pid} ${started}\n`);
    expect(() => HitLog.open({ dir, segmentBytes: SEGMENT_BYTES })).toThrow(`in use by process ${pid}`);
  });

  it('refuses a lock of an older version (a pid alone) while that pid lives', () => {
    const dir = newDir();
    const { pid } = otherProcess();
    writeFileSync(join(dir, 'lock'), `${pid}\n`);
    expect(() => HitLog.open({ dir, segmentBytes: SEGMENT_BYTES })).toThrow(`in use by process ${pid}`);
  });

  it('takes a lock whose pid another process has since taken (it started later than the holder)', async () => {
    const dir = newDir();
    const { pid } = otherProcess();
    writeFileSync(join(dir, 'lock'), `${pid} 1\n`);
    const { log } = HitLog.open({ dir, segmentBytes: SEGMENT_BYTES });
    await log.close();
    expect(readFileSync(join(dir, 'lock'), 'utf8')).toMatch(new RegExp(`^${process.pid} \\d+\n$`));
  });

  it('takes a lock whose process is gone', async () => {
    const dir = newDir();
    const { pid } = otherProcess();
    child!.kill('SIGKILL');
    await new Promise((resolve) => child!.once('exit', resolve));
    writeFileSync(join(dir, 'lock'), `${pid} 1\n`);
    const { log } = HitLog.open({ dir, segmentBytes: SEGMENT_BYTES });
    await log.close();
  });
});

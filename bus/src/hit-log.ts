import { randomBytes } from 'node:crypto';
import { appendFileSync, closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';

/**
 * One record of the log: its offset (a hit's place in the log, counted from the log's start and
 * never reused) and its payload, the hit as JSON text.
 */
export interface LogRecord {
  offset: number;
  payload: string;
}

export interface HitLogOptions {
  /** The log's directory (DATA_DIR/hitlog), created when missing. */
  dir: string;
  /** A new segment is started once the active one holds this many bytes. */
  segmentBytes: number;
  /**
   * Whether opening returns the records not yet released (default true). A reader that goes
   * through them with read() says false: the log may hold more than memory should.
   */
  collect?: boolean;
}

/** What opening a log found on disk: the records not yet released, and what was cut. */
export interface Recovery {
  /** every record still on disk and not released, oldest first (the caller skips what storage already holds); empty unless collected */
  records: LogRecord[];
  /** how many records are on disk and not released */
  unreleased: number;
  /** bytes cut from the tail of the last segment: a write the crash tore (it was never acknowledged) */
  tornBytes: number;
  /** segments that hold a damaged record before their end, renamed `*.damaged` for an operator */
  damaged: string[];
}

/** Bytes before each payload: its length and its CRC-32, both u32 little-endian. */
const HEADER = 8;
/** A payload longer than this is no record of ours: a damaged length. */
const MAX_PAYLOAD = 1 << 20;
/** Bytes read at once by read(): more than the longest record, so every chunk holds one. */
const READ_CHUNK = 4 * MAX_PAYLOAD;
const SEGMENT = /^(\d{20})\.log$/;

interface Segment {
  base: number;
  /** records in it */
  count: number;
  bytes: number;
}

/** What an operator reads of a log: its size on disk and how long its fsyncs take. */
export interface HitLogGauges {
  readonly bytes: number;
  readonly segmentCount: number;
  /** Called with each fdatasync's duration, seconds. */
  onSync: ((seconds: number) => void) | null;
}

/**
 * The collector's durable log: an append-only, checksummed, segmented file log on local disk.
 * An append is one write and one fdatasync for a whole group of hits (group commit); only after
 * it resolves are the hits acknowledged. A segment is removed once every record in it was
 * released (stored, or handed to Kafka); the active segment always stays, so offsets never
 * restart. A record torn by a crash mid-write fails its checksum and is cut at the next open:
 * it was never acknowledged, since its write had not returned.
 */
export class HitLog implements HitLogGauges {
  private readonly segments: Segment[] = [];
  private handle: FileHandle | null = null;
  private appending: Promise<unknown> = Promise.resolve();
  private released = -1;
  private closed = false;
  /** where the last read() ended: the next read from there starts without scanning its segment */
  private cursor: { offset: number; base: number; position: number } | null = null;
  /** fdatasync durations, seconds, for the operator (the caller observes them). */
  onSync: ((seconds: number) => void) | null = null;

  private constructor(
    private readonly options: HitLogOptions,
    /** The log's identity, made at its creation: offsets of another log (one deleted and made anew) are never confused with its own. */
    readonly id: string,
  ) {}

  /**
   * Opens (or creates) the log: reads every segment, cuts a torn tail of the last one, and
   * returns the records still on disk with the log.
   */
  static open(options: HitLogOptions): { log: HitLog; recovery: Recovery } {
    mkdirSync(options.dir, { recursive: true });
    takeLock(options.dir);
    const log = new HitLog(options, readOrMakeId(options.dir));
    log.released = readReleased(options.dir);
    const recovery = log.recover();
    return { log, recovery };
  }

  /** The highest offset released, -1 before the first release. */
  get releasedThrough(): number {
    return this.released;
  }

  /** The offset the next record gets. */
  get nextOffset(): number {
    const last = this.segments[this.segments.length - 1];
    // No segment (a log whose files an operator removed): never hand out an offset released before.
    return last ? last.base + last.count : this.released + 1;
  }

  /** Bytes of all segments on disk. */
  get bytes(): number {
    return this.segments.reduce((sum, s) => sum + s.bytes, 0);
  }

  /** Segment files on disk. */
  get segmentCount(): number {
    return this.segments.length;
  }

  /**
   * Writes the payloads as one group and makes them durable (fdatasync); resolves with the
   * offset of the first. Appends run one after another, in call order. A failed write (a full
   * disk) is cut back, so the log stays whole, and rejects: nothing of the group is acknowledged.
   */
  append(payloads: readonly string[]): Promise<number> {
    const run = this.appending.then(() => this.write(payloads));
    this.appending = run.catch(() => undefined);
    return run;
  }

  /**
   * Up to `max` records from offset `from` on (the first on disk at or past it), oldest first,
   * read from the segment files: only what an append has made durable. Reading on from where the
   * last read ended costs no scan; any other start scans its segment from the beginning. A record
   * damaged since the log was opened ends its segment for the reader (its bytes are set aside).
   */
  async read(from: number, max: number): Promise<LogRecord[]> {
    const out: LogRecord[] = [];
    let next = from;
    for (const segment of [...this.segments]) {
      const end = segment.base + segment.count;
      if (end <= next) continue;
      if (out.length >= max) break;
      next = Math.max(next, segment.base);
      next = await this.readSegment(segment, next, max - out.length, out);
    }
    return out;
  }

  /** Appends to `out` up to `max` records of one segment from offset `from`; returns the offset after the last. */
  private async readSegment(segment: Segment, from: number, max: number, out: LogRecord[]): Promise<number> {
    const cursor = this.cursor;
    const resume = cursor !== null && cursor.base === segment.base && cursor.offset === from;
    let offset = resume ? from : segment.base;
    let position = resume ? cursor.position : 0;
    // What an append has made durable: the committed length and count, as they are now.
    const bytes = segment.bytes;
    const end = segment.base + segment.count;
    const wanted = out.length + max;
    const handle = await open(join(this.options.dir, segmentName(segment.base)), 'r');
    try {
      while (out.length < wanted && offset < end && position < bytes) {
        const chunk = Buffer.allocUnsafe(Math.min(bytes - position, READ_CHUNK));
        const { bytesRead } = await handle.read(chunk, 0, chunk.byteLength, position);
        const { payloads, ends } = scanRecords(chunk.subarray(0, bytesRead));
        if (payloads.length === 0) {
          // Bytes an append made durable no longer read as a record: damaged on disk since.
          this.setAsideBytes(segment, position, chunk.subarray(0, bytesRead));
          this.cursor = { offset: end, base: segment.base, position: bytes };
          return end;
        }
        for (let i = 0; i < payloads.length && out.length < wanted && offset < end; i++) {
          if (offset >= from) out.push({ offset, payload: payloads[i]! });
          offset += 1;
          position += i === 0 ? ends[0]! : ends[i]! - ends[i - 1]!;
        }
      }
    } finally {
      await handle.close();
    }
    this.cursor = { offset, base: segment.base, position };
    return offset;
  }

  private setAsideBytes(segment: Segment, position: number, bytes: Buffer): void {
    const file = join(this.options.dir, `${segmentName(segment.base)}.damaged-at-${position}`);
    writeFileSync(file, bytes);
  }

  /**
   * Marks every record up to `through` as no longer needed (durably: a restart does not hand
   * them out again), and removes the segments that hold nothing else (never the active one).
   */
  async release(through: number): Promise<void> {
    if (through <= this.released) return;
    this.released = through;
    // Segments first: on a full disk the file below cannot be written until they are gone. A
    // crash between the two is harmless: the records of the removed segments are stored, those
    // left are handed out again and skipped as stored, and the segment being written stays.
    this.removeReleasedSegments();
    writeDurably(this.options.dir, RELEASED, `${through}\n`);
  }

  private removeReleasedSegments(): void {
    const through = this.released;
    while (this.segments.length > 1) {
      const [first, second] = this.segments as [Segment, Segment];
      if (second.base - 1 > through) break;
      rmSync(join(this.options.dir, segmentName(first.base)), { force: true });
      this.segments.shift();
    }
  }

  /**
   * Keeps a record that cannot be delivered, with its reason, in `set-aside.jsonl` beside the
   * segments (durably), for an operator; returns the file's path.
   */
  setAside(offset: number, payload: string, reason: string): string {
    const file = join(this.options.dir, SET_ASIDE);
    appendFileSync(file, `${JSON.stringify({ offset, reason, payload, at: new Date().toISOString() })}\n`);
    const fd = openSync(file, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    return file;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.appending;
    await this.handle?.close();
    this.handle = null;
  }

  private async write(payloads: readonly string[]): Promise<number> {
    if (this.closed) throw new Error('the hit log is closed');
    if (payloads.length === 0) return this.nextOffset;
    const segment = await this.activeSegment();
    const handle = this.handle!;
    const first = segment.base + segment.count;
    const buffer = encodeRecords(payloads);
    try {
      let written = 0;
      while (written < buffer.byteLength) {
        const { bytesWritten } = await handle.write(buffer, written, buffer.byteLength - written, segment.bytes + written);
        written += bytesWritten;
      }
      const started = process.hrtime.bigint();
      await handle.datasync();
      this.onSync?.(Number(process.hrtime.bigint() - started) / 1e9);
    } catch (error) {
      // What was written of the group is not acknowledged: cut it, so that the next group
      // follows the last whole record (the next open would cut it too).
      await handle.truncate(segment.bytes).catch(() => undefined);
      throw error;
    }
    segment.bytes += buffer.byteLength;
    segment.count += payloads.length;
    return first;
  }

  /** The segment appends go to, a new one once the last is full (its file entry made durable). */
  private async activeSegment(): Promise<Segment> {
    let last = this.segments[this.segments.length - 1];
    if (!last || (last.bytes >= this.options.segmentBytes && last.count > 0)) {
      const base = this.nextOffset;
      await this.handle?.close();
      this.handle = null;
      const file = join(this.options.dir, segmentName(base));
      const created = await open(file, 'a+');
      await created.close();
      syncDirectory(this.options.dir);
      last = { base, count: 0, bytes: 0 };
      this.segments.push(last);
      // The segments before it may now hold only released records.
      this.removeReleasedSegments();
    }
    this.handle ??= await open(join(this.options.dir, segmentName(last.base)), 'r+');
    return last;
  }

  private recover(): Recovery {
    const records: LogRecord[] = [];
    const collect = this.options.collect ?? true;
    let unreleased = 0;
    const damaged: string[] = [];
    let tornBytes = 0;
    const names = readdirSync(this.options.dir)
      .filter((name) => SEGMENT.test(name))
      .sort();
    names.forEach((name, i) => {
      const base = Number(SEGMENT.exec(name)![1]);
      const file = join(this.options.dir, name);
      const bytes = readFileSync(file);
      const { payloads, whole } = decodeRecords(bytes);
      payloads.forEach((payload, j) => {
        if (base + j <= this.released) return;
        unreleased += 1;
        if (collect) records.push({ offset: base + j, payload });
      });
      if (whole < bytes.byteLength) {
        if (i === names.length - 1) {
          // The tail of the last segment: a group whose write the crash interrupted.
          truncateSync(file, whole);
          tornBytes = bytes.byteLength - whole;
        } else {
          // A damaged record inside an older segment is no torn write: keep the bytes for an
          // operator, and the records before it.
          writeFileSync(`${file}.damaged`, bytes.subarray(whole));
          truncateSync(file, whole);
          damaged.push(`${name}.damaged`);
        }
      }
      this.segments.push({ base, count: payloads.length, bytes: whole });
    });
    this.removeReleasedSegments();
    return { records, unreleased, tornBytes, damaged };
  }
}

/** Records as bytes: for each, its length, its CRC-32 and its UTF-8 payload. */
export function encodeRecords(payloads: readonly string[]): Buffer {
  const bodies = payloads.map((p) => Buffer.from(p, 'utf8'));
  if (bodies.some((b) => b.byteLength === 0)) throw new Error('an empty record is no hit (it would read as the end of the log)');
  const out = Buffer.allocUnsafe(bodies.reduce((sum, b) => sum + HEADER + b.byteLength, 0));
  let at = 0;
  for (const body of bodies) {
    out.writeUInt32LE(body.byteLength, at);
    out.writeUInt32LE(crc32(body), at + 4);
    body.copy(out, at + HEADER);
    at += HEADER + body.byteLength;
  }
  return out;
}

/**
 * The whole records at the start of `bytes`, and where they end: reading stops at the first
 * record cut short, empty or failing its checksum.
 */
export function decodeRecords(bytes: Buffer): { payloads: string[]; whole: number } {
  const { payloads, whole } = scanRecords(bytes);
  return { payloads, whole };
}

/** decodeRecords, with where each record ends. */
function scanRecords(bytes: Buffer): { payloads: string[]; ends: number[]; whole: number } {
  const payloads: string[] = [];
  const ends: number[] = [];
  let at = 0;
  while (at + HEADER <= bytes.byteLength) {
    const length = bytes.readUInt32LE(at);
    // A length of 0 is no hit: it is what a tail of zeros reads as (a file extended by a crash
    // before its data reached the disk), whose checksum of nothing would match.
    if (length === 0 || length > MAX_PAYLOAD || at + HEADER + length > bytes.byteLength) break;
    const body = bytes.subarray(at + HEADER, at + HEADER + length);
    if (crc32(body) !== bytes.readUInt32LE(at + 4)) break;
    payloads.push(body.toString('utf8'));
    at += HEADER + length;
    ends.push(at);
  }
  return { payloads, ends, whole: at };
}

function segmentName(base: number): string {
  return `${String(base).padStart(20, '0')}.log`;
}

/** The log's identity, written once (temporary file, rename, directory synced). */
function readOrMakeId(dir: string): string {
  const file = join(dir, 'id');
  try {
    const id = readFileSync(file, 'utf8').trim();
    if (/^[0-9a-f]{16}$/.test(id)) return id;
  } catch {
    // none yet
  }
  const id = randomBytes(8).toString('hex');
  writeDurably(dir, 'id', `${id}\n`);
  return id;
}

/**
 * Makes this process the log's only writer: two processes appending to one log would interleave
 * their records, so a log another live process holds is refused. The lock names the holder by
 * its pid and, on Linux, its start time: after a crash a container's new process often gets a pid the old one had, or
 * another process took it, and a pid alone would then read as a live holder for good.
 */
function takeLock(dir: string): void {
  const file = join(dir, 'lock');
  let holder: LockHolder | null = null;
  try {
    holder = parseLock(readFileSync(file, 'utf8'));
  } catch {
    // no lock yet
  }
  if (holder && holder.pid !== process.pid && isRunning(holder)) {
    throw new Error(`the hit log in ${dir} is in use by process ${holder.pid}: give each collector its own DATA_DIR`);
  }
  const started = startTimeOf(process.pid);
  writeDurably(dir, 'lock', started === null ? `${process.pid}\n` : `${process.pid} ${started}\n`);
}

/** Who holds a lock: a pid, and its start time where the system tells it. */
interface LockHolder {
  pid: number;
  started: string | null;
}

/** A lock file's text: "pid" or "pid start-time"; null when it is neither. */
function parseLock(text: string): LockHolder | null {
  const [pid, started] = text.trim().split(' ');
  const number = Number(pid);
  if (!Number.isSafeInteger(number) || number <= 0) return null;
  return { pid: number, started: started ?? null };
}

/** Whether the process that wrote the lock still runs: its pid is alive and, if known, started when it did. */
function isRunning(holder: LockHolder): boolean {
  if (!isAlive(holder.pid)) return false;
  if (holder.started === null) return true;
  const started = startTimeOf(holder.pid);
  return started === null || started === holder.started;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A process's start time in clock ticks since boot (Linux's /proc/<pid>/stat, field 22), or null elsewhere. */
function startTimeOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: the fields after it follow its last ")".
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

/** Records that cannot be delivered, one JSON line each. */
const SET_ASIDE = 'set-aside.jsonl';

/** The file that keeps the highest released offset. */
const RELEASED = 'released';

/** The highest offset released before, or -1. */
function readReleased(dir: string): number {
  try {
    const value = Number(readFileSync(join(dir, RELEASED), 'utf8').trim());
    return Number.isSafeInteger(value) ? value : -1;
  } catch {
    return -1;
  }
}

/** Replaces a small file whole and durably: a temporary file fsynced, renamed, the directory fsynced. */
function writeDurably(dir: string, name: string, text: string): void {
  const temporary = join(dir, `.${name}.tmp`);
  writeFileSync(temporary, text);
  const fd = openSync(temporary, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, join(dir, name));
  syncDirectory(dir);
}

/** Makes a directory's entries (a created or renamed file) durable. */
function syncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The server time of a hit read back from the log; 0 (very old) when it cannot be read. */
export function atOf(payload: string): number {
  try {
    const at = (JSON.parse(payload) as { at?: unknown }).at;
    return typeof at === 'number' ? at : 0;
  } catch {
    return 0;
  }
}

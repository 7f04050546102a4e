/**
 * Transport test: the project's HTTP ClickHouse client against a real server.
 *
 * On the build machines that server is Debian's ClickHouse 18.16 started by `infra/up.sh`
 * (or `infra/clickhouse.sh start`); users with Docker may point CLICKHOUSE_HTTP_URL at a current
 * server from `infra/docker-compose.yml`. The SQL here is what both accept: no query parameters,
 * no LowCardinality, plain MergeTree. The project's real SQL is tested on chDB, not here.
 *
 * The suite fails (it does not skip) when no server answers: a cluster run without its servers
 * must not look green.
 */
import net from 'node:net';
import { ClickHouseError } from '@clickhouse/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClickHouse, type ClickHouseClient } from './client.js';
import { isConnectionError, retrying } from './retry.js';

const DEFAULT_URL = 'http://127.0.0.1:8123';

/** Read here, not at module scope, so importing the file has no side effects. */
function serverUrl(): URL {
  return new URL(process.env.CLICKHOUSE_HTTP_URL ?? DEFAULT_URL);
}

/** The numeric server error code, whether the client parsed the error or left it as text. */
function serverErrorCode(error: unknown): string | undefined {
  if (error instanceof ClickHouseError) return error.code;
  if (error instanceof Error) return /\bCode: (\d+)/.exec(error.message)?.[1];
  return undefined;
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail, it succeeded');
}

/** A port on 127.0.0.1 where nothing listens (taken from the OS, then released). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
  return port;
}

/**
 * A TCP proxy on `port` to the ClickHouse server. The first `dropFirst` connections are cut,
 * alternately: closed after the request arrived, without an answer (the client sees "socket
 * hang up"), and reset at once (the client sees ECONNRESET).
 */
async function startProxy(port: number, target: URL, dropFirst = 0): Promise<{ accepted: () => number; close: () => Promise<void> }> {
  let accepted = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    accepted++;
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    if (accepted <= dropFirst) {
      if (accepted % 2 === 1) {
        // Read the request so the close is a clean FIN; unread data would turn it into a reset.
        client.on('data', () => undefined);
        client.once('data', () => client.end());
      } else {
        client.resetAndDestroy();
      }
      return;
    }
    const upstream = net.connect(Number(target.port || 80), target.hostname);
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    accepted: () => accepted,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('HTTP ClickHouse transport (real server)', () => {
  const url = serverUrl();
  const table = `transport_test_${process.pid}_${Date.now()}`;
  let ch: ClickHouseClient;
  let version = '';
  let connected = false;

  beforeAll(async () => {
    ch = createClickHouse({ kind: 'http', url: url.origin });
    const ping = await ch.ping();
    if (!ping.success) {
      throw new Error(
        `no ClickHouse server answers at ${url.origin} (${String(ping.error)}). ` +
          'Start it with `bash infra/up.sh` (or `bash infra/clickhouse.sh start`), or set CLICKHOUSE_HTTP_URL.',
      );
    }
    connected = true;
    const rows = await (await ch.query({ query: 'SELECT version() AS v', format: 'JSONEachRow' })).json<{ v: string }>();
    version = rows[0]?.v ?? '';
  });

  afterAll(async () => {
    if (connected) await ch.command({ query: `DROP TABLE IF EXISTS ${table}` });
    await ch?.close();
  });

  it('answers ping and reports a version', async () => {
    expect(await ch.ping()).toEqual({ success: true });
    expect(version).toMatch(/^\d+\.\d+/);
  });

  it('creates a table, inserts JSONEachRow rows and selects them back', async () => {
    await ch.command({
      query: `CREATE TABLE ${table} (id UInt32, page String, at DateTime, weight Float64) ENGINE = MergeTree ORDER BY id`,
    });
    await ch.insert({
      table,
      format: 'JSONEachRow',
      values: [
        { id: 2, page: 'https://example.ru/второй?q=1', at: '2026-11-21 10:00:01', weight: 0.5 },
        { id: 1, page: 'https://example.ru/', at: '2026-11-21 10:00:00', weight: 1 },
        { id: 3, page: 'quote " and \\ backslash', at: '2026-11-21 23:59:59', weight: -2.25 },
      ],
    });
    const rs = await ch.query({ query: `SELECT id, page, at, weight FROM ${table} ORDER BY id`, format: 'JSONEachRow' });
    expect(await rs.json()).toEqual([
      { id: 1, page: 'https://example.ru/', at: '2026-11-21 10:00:00', weight: 1 },
      { id: 2, page: 'https://example.ru/второй?q=1', at: '2026-11-21 10:00:01', weight: 0.5 },
      { id: 3, page: 'quote " and \\ backslash', at: '2026-11-21 23:59:59', weight: -2.25 },
    ]);
  });

  it('streams a larger insert in one request and counts it', async () => {
    const values = Array.from({ length: 5000 }, (_, i) => ({ id: 1000 + i, page: `/p/${i % 17}`, at: '2026-11-21 12:00:00', weight: i }));
    await ch.insert({ table, format: 'JSONEachRow', values });
    const rs = await ch.query({
      query: `SELECT toUInt32(count()) AS n, toUInt32(uniqExact(page)) AS pages FROM ${table} WHERE id >= 1000`,
      format: 'JSONEachRow',
    });
    expect(await rs.json()).toEqual([{ n: 5000, pages: 17 }]);
  });

  it('surfaces a server error with its code and message: unknown table', async () => {
    const error = await caught(ch.query({ query: `SELECT * FROM ${table}_missing`, format: 'JSONEachRow' }));
    expect(error).toBeInstanceOf(Error);
    expect(serverErrorCode(error)).toBe('60');
    expect((error as Error).message).toContain(`${table}_missing`);
  });

  it('surfaces a syntax error with code 62', async () => {
    const error = await caught(ch.command({ query: 'SELEC 1' }));
    expect(serverErrorCode(error)).toBe('62');
    expect((error as Error).message).toMatch(/Syntax error/);
  });

  it('rejects an insert of a malformed row and stores nothing from it', async () => {
    const before = await (await ch.query({ query: `SELECT toUInt32(count()) AS n FROM ${table}`, format: 'JSONEachRow' })).json();
    const error = await caught(
      ch.insert({ table, format: 'JSONEachRow', values: [{ id: 'not a number', page: 'x', at: '2026-11-21 00:00:00', weight: 0 }] }),
    );
    expect(serverErrorCode(error)).toBe('27'); // CANNOT_PARSE_INPUT_ASSERTION_FAILED
    const after = await (await ch.query({ query: `SELECT toUInt32(count()) AS n FROM ${table}`, format: 'JSONEachRow' })).json();
    expect(after).toEqual(before);
  });

  it('gives ClickHouseError on a current server and a plain Error on 18.x, whose error text the client cannot parse', async () => {
    const error = await caught(ch.query({ query: `SELECT * FROM ${table}_missing`, format: 'JSONEachRow' }));
    if (version.startsWith('18.')) {
      // 18.16 writes "Code: 60, e.displayText() = DB::Exception: ..., e.what() = DB::Exception":
      // no "(UNKNOWN_TABLE)" marker, which the client's parser requires.
      expect(error).not.toBeInstanceOf(ClickHouseError);
      expect((error as Error).message).toMatch(/^Code: 60, e\.displayText\(\) = DB::Exception: Table default\.\S+ doesn't exist/);
    } else {
      expect(error).toBeInstanceOf(ClickHouseError);
      expect((error as ClickHouseError).type).toBe('UNKNOWN_TABLE');
    }
  });

  it('retries a refused connection until the server appears', async () => {
    const port = await freePort();
    const late = createClickHouse({ kind: 'http', url: `http://127.0.0.1:${port}` });
    const failures: string[] = [];
    let proxy: Awaited<ReturnType<typeof startProxy>> | undefined;
    // Nothing listens on the port for the first 400 ms; then a proxy to the real server does.
    const opening = new Promise<void>((resolve, reject) => {
      setTimeout(() => startProxy(port, url).then((p) => ((proxy = p), resolve()), reject), 400);
    });
    try {
      const started = performance.now();
      const rows = await retrying(
        async () => (await late.query({ query: 'SELECT toUInt8(1) AS one', format: 'JSONEachRow' })).json(),
        {
          attempts: 10,
          initialDelayMs: 50,
          maxDelayMs: 400,
          onRetry: (error) => failures.push((error as NodeJS.ErrnoException).code ?? String(error)),
        },
      );
      expect(rows).toEqual([{ one: 1 }]);
      expect(performance.now() - started).toBeGreaterThanOrEqual(350);
      expect(failures.length).toBeGreaterThanOrEqual(2);
      expect(new Set(failures)).toEqual(new Set(['ECONNREFUSED']));
    } finally {
      await opening;
      await late.close();
      await proxy?.close();
    }
  });

  it('retries a connection cut before the answer ("socket hang up" / reset)', async () => {
    const port = await freePort();
    const proxy = await startProxy(port, url, 2);
    const flaky = createClickHouse({ kind: 'http', url: `http://127.0.0.1:${port}` });
    const failures: unknown[] = [];
    try {
      const rows = await retrying(
        async () => (await flaky.query({ query: 'SELECT toUInt8(2) AS two', format: 'JSONEachRow' })).json(),
        { attempts: 5, initialDelayMs: 20, maxDelayMs: 100, onRetry: (error) => failures.push(error) },
      );
      expect(rows).toEqual([{ two: 2 }]);
      expect(failures).toHaveLength(2);
      expect(failures.map((f) => [(f as NodeJS.ErrnoException).code, (f as Error).message.includes('socket hang up')])).toEqual([
        ['ECONNRESET', true],
        ['ECONNRESET', false],
      ]);
      expect(failures.every(isConnectionError)).toBe(true);
      expect(proxy.accepted()).toBe(3);
    } finally {
      await flaky.close();
      await proxy.close();
    }
  });

  it('gives up after the last attempt with the connection error itself', async () => {
    const port = await freePort();
    const dead = createClickHouse({ kind: 'http', url: `http://127.0.0.1:${port}` });
    let calls = 0;
    try {
      const error = await caught(
        retrying(
          async () => {
            calls++;
            await dead.command({ query: 'SELECT 1' });
          },
          { attempts: 3, initialDelayMs: 10, maxDelayMs: 20 },
        ),
      );
      expect(calls).toBe(3);
      expect(error).toMatchObject({ code: 'ECONNREFUSED' });
    } finally {
      await dead.close();
    }
  });

  it('does not retry a server error', async () => {
    let calls = 0;
    const error = await caught(
      retrying(
        async () => {
          calls++;
          await ch.command({ query: `SELECT * FROM ${table}_missing` });
        },
        { attempts: 5, initialDelayMs: 10, maxDelayMs: 20 },
      ),
    );
    expect(calls).toBe(1);
    expect(serverErrorCode(error)).toBe('60');
  });
});

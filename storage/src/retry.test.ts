import { describe, expect, it } from 'vitest';
import {
  backoffDelay,
  clickHouseErrorCode,
  isConnectionError,
  isDataRefusal,
  isTransientError,
  retrying,
  StoreRefusingWritesError,
  type RetryOptions,
} from './retry.js';

function errno(code: string, message = `connect ${code} 127.0.0.1:8123`): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

/** A clock that records the waits instead of waiting. */
function fakeSleep(): { waits: number[]; sleep: NonNullable<RetryOptions['sleep']> } {
  const waits: number[] = [];
  return { waits, sleep: async (ms) => void waits.push(ms) };
}

/** A function that fails with the given errors in turn, then returns 'done'. */
function failing(...errors: unknown[]): { fn: (attempt: number) => Promise<string>; calls: number[] } {
  const calls: number[] = [];
  return {
    calls,
    fn: async (attempt) => {
      calls.push(attempt);
      if (errors.length > 0) throw errors.shift();
      return 'done';
    },
  };
}

describe('backoffDelay', () => {
  it('doubles from the initial delay and stops at the cap', () => {
    const opts = { initialDelayMs: 100, maxDelayMs: 1000 };
    expect([1, 2, 3, 4, 5, 6].map((a) => backoffDelay(a, opts))).toEqual([100, 200, 400, 800, 1000, 1000]);
  });

  it('uses the given factor', () => {
    const opts = { initialDelayMs: 10, maxDelayMs: 10_000, factor: 3 };
    expect([1, 2, 3, 4].map((a) => backoffDelay(a, opts))).toEqual([10, 30, 90, 270]);
  });

  it('never exceeds the cap even for huge attempt numbers', () => {
    expect(backoffDelay(10_000, { initialDelayMs: 50, maxDelayMs: 5000 })).toBe(5000);
  });
});

describe('isConnectionError', () => {
  it.each(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN'])(
    'is true for %s',
    (code) => {
      expect(isConnectionError(errno(code))).toBe(true);
    },
  );

  it('is true for "socket hang up" without a code', () => {
    expect(isConnectionError(new Error('socket hang up'))).toBe(true);
  });

  it('follows the cause chain', () => {
    const wrapped = new Error('insert failed', { cause: new Error('request failed', { cause: errno('ECONNRESET') }) });
    expect(isConnectionError(wrapped)).toBe(true);
  });

  it('is false for a server error, a timeout message, and non-errors', () => {
    expect(isConnectionError(new Error("Code: 60, e.displayText() = DB::Exception: Table default.x doesn't exist."))).toBe(false);
    expect(isConnectionError(errno('ENOENT', 'no such file'))).toBe(false);
    expect(isConnectionError('ECONNREFUSED')).toBe(false);
    expect(isConnectionError(undefined)).toBe(false);
    expect(isConnectionError({ code: 'ECONNREFUSED' })).toBe(false);
  });
});

describe('isTransientError', () => {
  it('is true for a store refusing writes, directly or as a cause', () => {
    const refusing = new StoreRefusingWritesError('too many parts', { cause: new Error('Code: 252') });
    expect(isTransientError(refusing)).toBe(true);
    expect(isTransientError(new Error('flush failed', { cause: refusing }))).toBe(true);
    expect(refusing.name).toBe('StoreRefusingWritesError');
  });

  it('is true for connection errors and false for others', () => {
    expect(isTransientError(errno('ECONNREFUSED'))).toBe(true);
    expect(isTransientError(new Error('Syntax error'))).toBe(false);
  });
});

/** An error shaped as @clickhouse/client and chDB's connection throw a server's answer. */
function serverError(code: number, type: string, message = 'refused'): Error {
  return Object.assign(new Error(message), { code: String(code), type });
}

describe('clickHouseErrorCode', () => {
  it('reads the code of a ClickHouseError', () => {
    expect(clickHouseErrorCode(serverError(469, 'VIOLATED_CONSTRAINT'))).toBe(469);
  });

  it("reads an old server's code from the message, through causes", () => {
    const old = new Error("Code: 60, e.displayText() = DB::Exception: Table default.x doesn't exist.");
    expect(clickHouseErrorCode(new Error('insert failed', { cause: old }))).toBe(60);
  });

  it('is null for a socket error, a plain error and a non-error', () => {
    expect([errno('ECONNREFUSED'), new Error('Timeout error.'), 'Code: 60.'].map(clickHouseErrorCode)).toEqual([null, null, null]);
  });
});

describe('isTransientError on server answers', () => {
  it.each([
    [159, 'TIMEOUT_EXCEEDED'],
    [202, 'TOO_MANY_SIMULTANEOUS_QUERIES'],
    [209, 'SOCKET_TIMEOUT'],
    [210, 'NETWORK_ERROR'],
    [241, 'MEMORY_LIMIT_EXCEEDED'],
    [242, 'TABLE_IS_READ_ONLY'],
    [252, 'TOO_MANY_PARTS'],
  ])('is true for code %i (%s)', (code, type) => {
    expect(isTransientError(serverError(code, type))).toBe(true);
  });

  it("is true for the client's request timeout", () => {
    expect(isTransientError(new Error('Timeout error.'))).toBe(true);
  });

  it('is false for a refused row', () => {
    expect(isTransientError(serverError(469, 'VIOLATED_CONSTRAINT'))).toBe(false);
  });
});

describe('isDataRefusal', () => {
  it('is true for a server refusing the values it was sent', () => {
    expect([serverError(469, 'VIOLATED_CONSTRAINT'), serverError(72, 'CANNOT_PARSE_NUMBER'), serverError(25, 'CANNOT_PARSE_ESCAPE_SEQUENCE')].map(isDataRefusal)).toEqual([
      true,
      true,
      true,
    ]);
  });

  it('is false for outages, a store not set up, and errors that are not the server\'s answer', () => {
    const cases = [
      serverError(252, 'TOO_MANY_PARTS'),
      serverError(60, 'UNKNOWN_TABLE'),
      serverError(516, 'AUTHENTICATION_FAILED'),
      serverError(16, 'NO_SUCH_COLUMN_IN_TABLE'),
      serverError(49, 'LOGICAL_ERROR'),
      serverError(243, 'NOT_ENOUGH_SPACE'),
      errno('ECONNREFUSED'),
      new Error('socket hang up'),
      new Error('<html>502 Bad Gateway</html>'),
    ];
    expect(cases.map(isDataRefusal)).toEqual(cases.map(() => false));
  });
});

describe('retrying', () => {
  const base = { attempts: 5, initialDelayMs: 100, maxDelayMs: 300 };

  it('returns at once when the first call succeeds', async () => {
    const { fn, calls } = failing();
    const clock = fakeSleep();
    expect(await retrying(fn, { ...base, sleep: clock.sleep })).toBe('done');
    expect(calls).toEqual([1]);
    expect(clock.waits).toEqual([]);
  });

  it('retries connection errors with capped exponential waits until success', async () => {
    const { fn, calls } = failing(errno('ECONNREFUSED'), errno('ECONNREFUSED'), new Error('socket hang up'), errno('ECONNRESET'));
    const clock = fakeSleep();
    const seen: Array<[number, number]> = [];
    const result = await retrying(fn, {
      ...base,
      sleep: clock.sleep,
      onRetry: (_error, attempt, delay) => seen.push([attempt, delay]),
    });
    expect(result).toBe('done');
    expect(calls).toEqual([1, 2, 3, 4, 5]);
    expect(clock.waits).toEqual([100, 200, 300, 300]);
    expect(seen).toEqual([[1, 100], [2, 200], [3, 300], [4, 300]]);
  });

  it('throws the last error unchanged when the attempts run out', async () => {
    const last = errno('ECONNREFUSED', 'the third');
    const { fn, calls } = failing(errno('ECONNREFUSED'), errno('ECONNREFUSED'), last);
    const clock = fakeSleep();
    await expect(retrying(fn, { ...base, attempts: 3, sleep: clock.sleep })).rejects.toBe(last);
    expect(calls).toEqual([1, 2, 3]);
    expect(clock.waits).toEqual([100, 200]);
  });

  it('does not retry an error the predicate rejects', async () => {
    const bad = new Error('Code: 62, e.displayText() = DB::Exception: Syntax error');
    const { fn, calls } = failing(bad);
    const clock = fakeSleep();
    await expect(retrying(fn, { ...base, sleep: clock.sleep })).rejects.toBe(bad);
    expect(calls).toEqual([1]);
    expect(clock.waits).toEqual([]);
  });

  it('retries a StoreRefusingWritesError by default', async () => {
    const { fn, calls } = failing(new StoreRefusingWritesError('read-only'));
    const clock = fakeSleep();
    expect(await retrying(fn, { ...base, sleep: clock.sleep })).toBe('done');
    expect(calls).toEqual([1, 2]);
  });

  it('uses an injected predicate, which sees the error and the attempt', async () => {
    const custom = new Error('try me again');
    const { fn, calls } = failing(custom, custom, errno('ECONNREFUSED'));
    const clock = fakeSleep();
    const asked: Array<[unknown, number]> = [];
    const retryOn = (error: unknown, attempt: number): boolean => {
      asked.push([error, attempt]);
      return error === custom;
    };
    await expect(retrying(fn, { ...base, retryOn, sleep: clock.sleep })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(calls).toEqual([1, 2, 3]);
    expect(asked.map(([, attempt]) => attempt)).toEqual([1, 2, 3]);
  });

  it('stops waiting when the signal aborts and throws the last error', async () => {
    const controller = new AbortController();
    const refused = errno('ECONNREFUSED');
    const { fn, calls } = failing(refused, refused, refused);
    const sleep: RetryOptions['sleep'] = async () => controller.abort();
    await expect(retrying(fn, { ...base, signal: controller.signal, sleep })).rejects.toBe(refused);
    expect(calls).toEqual([1]);
  });

  it('waits for real with the default sleep', async () => {
    const { fn, calls } = failing(errno('ECONNREFUSED'));
    const started = performance.now();
    expect(await retrying(fn, { attempts: 2, initialDelayMs: 30, maxDelayMs: 30 })).toBe('done');
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
    expect(calls).toEqual([1, 2]);
  });

  it('retries without a bound when attempts is Infinity, until the predicate refuses', async () => {
    const refused = errno('ECONNREFUSED');
    const { fn, calls } = failing(...new Array<Error>(20).fill(refused), new Error('the last'));
    const clock = fakeSleep();
    await expect(retrying(fn, { ...base, attempts: Infinity, retryOn: (error) => error === refused, sleep: clock.sleep })).rejects.toThrow('the last');
    expect(calls).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
  });

  it('refuses a non-positive number of attempts', async () => {
    const { fn, calls } = failing();
    await expect(retrying(fn, { ...base, attempts: 0 })).rejects.toThrow(RangeError);
    expect(calls).toEqual([]);
  });
});

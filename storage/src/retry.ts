/**
 * Retrying a call to a store (ClickHouse, and anything else reached over the network) while the
 * failure is one that waiting can cure: the server is not listening yet, a connection was cut,
 * or the store said it refuses writes for now. Every other error is thrown at once, because
 * trying the same bad query again only repeats the error more slowly.
 */

/**
 * Thrown by a store adapter when the store is up but refuses writes for a while (too many parts,
 * read-only replica, a merge backlog). Retried by {@link isTransientError}; keep the original
 * server error as `cause`.
 */
export class StoreRefusingWritesError extends Error {
  override readonly name = 'StoreRefusingWritesError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * Node socket error codes that mean "no connection right now": the peer is down, restarting or
 * unreachable. A request that failed with one of these may or may not have reached the server,
 * so only idempotent calls (our inserts carry event ids) should be retried on them.
 */
export const CONNECTION_ERROR_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** How deep {@link isConnectionError} follows `cause` chains; wrappers rarely nest more. */
const MAX_CAUSE_DEPTH = 5;

function* causeChain(error: unknown): Generator<unknown> {
  let current = error;
  for (let depth = 0; depth <= MAX_CAUSE_DEPTH && current !== undefined && current !== null; depth++) {
    yield current;
    current = current instanceof Error ? current.cause : undefined;
  }
}

/**
 * True when the error, or an error in its `cause` chain, is a lost or refused connection:
 * a Node socket error code from {@link CONNECTION_ERROR_CODES}, or Node's "socket hang up"
 * (the server closed the connection before answering).
 */
export function isConnectionError(error: unknown): boolean {
  for (const e of causeChain(error)) {
    if (!(e instanceof Error)) continue;
    const code = (e as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && CONNECTION_ERROR_CODES.has(code)) return true;
    if (/socket hang up/i.test(e.message)) return true;
  }
  return false;
}

/**
 * ClickHouse server errors that mean "try later": the server is busy, short of memory or
 * space, behind on merges, read-only for now, or lost a peer (replica, Keeper) on the way.
 * Keyed by the error's type name as the server spells it, valued by its code.
 */
export const CLICKHOUSE_TRANSIENT_ERRORS: Readonly<Record<string, number>> = {
  UNEXPECTED_END_OF_FILE: 3,
  TIMEOUT_EXCEEDED: 159,
  TOO_SLOW: 160,
  CANNOT_ALLOCATE_MEMORY: 173,
  QUOTA_EXCEEDED: 201,
  TOO_MANY_SIMULTANEOUS_QUERIES: 202,
  NO_FREE_CONNECTION: 203,
  SOCKET_TIMEOUT: 209,
  NETWORK_ERROR: 210,
  TABLE_IS_DROPPED: 218,
  NO_ZOOKEEPER: 225,
  ABORTED: 236,
  MEMORY_LIMIT_EXCEEDED: 241,
  TABLE_IS_READ_ONLY: 242,
  NOT_ENOUGH_SPACE: 243,
  TOO_MANY_PARTS: 252,
  ALL_CONNECTION_TRIES_FAILED: 279,
  TOO_FEW_LIVE_REPLICAS: 285,
  UNSATISFIED_QUORUM_FOR_PREVIOUS_WRITE: 286,
  UNKNOWN_STATUS_OF_INSERT: 319,
  QUERY_WAS_CANCELLED: 394,
  SYSTEM_ERROR: 425,
  CANNOT_SCHEDULE_TASK: 439,
  KEEPER_EXCEPTION: 999,
  POCO_EXCEPTION: 1000,
};

/**
 * ClickHouse server errors that say the store is not set up for the writes (a table or column
 * missing before the migrations ran, wrong credentials, a read-only user) or that the query
 * itself is wrong. No row is to blame: they are not the data's fault, whatever the rows hold.
 */
export const CLICKHOUSE_SETUP_ERRORS: Readonly<Record<string, number>> = {
  THERE_IS_NO_COLUMN: 8,
  // The server's own faults: a bug or an internal error says nothing of the rows.
  NOT_IMPLEMENTED: 48,
  LOGICAL_ERROR: 49,
  UNKNOWN_FORMAT: 73,
  STD_EXCEPTION: 1001,
  UNKNOWN_EXCEPTION: 1002,
  NO_SUCH_COLUMN_IN_TABLE: 16,
  UNKNOWN_IDENTIFIER: 47,
  UNKNOWN_TABLE: 60,
  SYNTAX_ERROR: 62,
  UNKNOWN_DATABASE: 81,
  UNKNOWN_SETTING: 115,
  READONLY: 164,
  UNKNOWN_USER: 192,
  WRONG_PASSWORD: 193,
  REQUIRED_PASSWORD: 194,
  ACCESS_DENIED: 497,
  AUTHENTICATION_FAILED: 516,
};

const TRANSIENT_CODES = new Set(Object.values(CLICKHOUSE_TRANSIENT_ERRORS));
const SETUP_CODES = new Set(Object.values(CLICKHOUSE_SETUP_ERRORS));

/**
 * The ClickHouse server error code an error carries, or null when it is not the server's answer.
 * `@clickhouse/client` (over HTTP) and chDB's connection both throw a ClickHouseError with a
 * numeric `code` string; a server too old for the client's parser (18.16 says
 * `Code: 60, e.displayText() = DB::Exception: …`) gives a plain Error whose message starts so.
 */
export function clickHouseErrorCode(error: unknown): number | null {
  for (const e of causeChain(error)) {
    if (!(e instanceof Error)) continue;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^\d+$/.test(code)) return Number(code);
    const match = /^Code: (\d+)[.,]/.exec(e.message);
    if (match) return Number(match[1]);
  }
  return null;
}

/** `@clickhouse/client`'s own request timeout: the server did not answer within request_timeout. */
const CLIENT_TIMEOUT = /^Timeout error\.?$/;

/**
 * The default retry predicate, "an outage": a connection error, the client's request timeout,
 * a ClickHouse server error that means "try later" ({@link CLICKHOUSE_TRANSIENT_ERRORS}), or a
 * {@link StoreRefusingWritesError}.
 */
export function isTransientError(error: unknown): boolean {
  for (const e of causeChain(error)) {
    if (e instanceof StoreRefusingWritesError) return true;
    if (e instanceof Error && CLIENT_TIMEOUT.test(e.message)) return true;
  }
  const code = clickHouseErrorCode(error);
  if (code !== null && TRANSIENT_CODES.has(code)) return true;
  return isConnectionError(error);
}

/**
 * True when ClickHouse answered and refused what was sent: a server error that is neither an
 * outage ({@link isTransientError}) nor a store not set up ({@link CLICKHOUSE_SETUP_ERRORS}),
 * e.g. a value it cannot parse or a row that breaks a constraint. Only then are the rows to
 * blame, and a writer may split its batch to find them; any other error (an unknown one too)
 * is the store's, and the write is tried again later.
 */
export function isDataRefusal(error: unknown): boolean {
  const code = clickHouseErrorCode(error);
  return code !== null && !SETUP_CODES.has(code) && !isTransientError(error);
}

/** Options of {@link retrying}. */
export interface RetryOptions {
  /**
   * Total number of calls, the first included; at least 1. Infinity for a caller that stops
   * through `retryOn` or `signal` instead (the aggregator, which waits out any outage).
   */
  attempts: number;
  /** Wait after the first failure, in milliseconds. */
  initialDelayMs: number;
  /** Upper bound of any single wait, in milliseconds. */
  maxDelayMs: number;
  /** Growth of the wait from one failure to the next; 2 when absent. */
  factor?: number;
  /** Which errors deserve another call; {@link isTransientError} when absent. */
  retryOn?: (error: unknown, attempt: number) => boolean;
  /** Told about every failure that will be retried, before the wait (for logs and metrics). */
  onRetry?: (error: unknown, attempt: number, delayMs: number) => void;
  /** Stops the waiting: the pending wait ends and the last error is thrown. */
  signal?: AbortSignal;
  /** How to wait; tests pass a fake clock. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * The wait after failed attempt number `attempt` (1-based):
 * `initialDelayMs * factor^(attempt - 1)`, capped at `maxDelayMs`.
 */
export function backoffDelay(attempt: number, options: Pick<RetryOptions, 'initialDelayMs' | 'maxDelayMs' | 'factor'>): number {
  const factor = options.factor ?? 2;
  const raw = options.initialDelayMs * factor ** Math.max(0, attempt - 1);
  return Math.min(options.maxDelayMs, raw);
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * Calls `fn` until it resolves, it throws an error that `retryOn` rejects, the attempts are
 * used up, or `signal` aborts. Waits between calls grow by `factor` up to `maxDelayMs`.
 * Throws the last error unchanged, so callers can still match on its class and code.
 *
 * @param fn receives the 1-based attempt number
 */
export async function retrying<T>(fn: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> {
  if (!(Number.isInteger(options.attempts) || options.attempts === Infinity) || options.attempts < 1) {
    throw new RangeError(`attempts must be a positive integer, got ${options.attempts}`);
  }
  const retryOn = options.retryOn ?? isTransientError;
  const sleep = options.sleep ?? defaultSleep;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (error) {
      if (attempt >= options.attempts || options.signal?.aborted || !retryOn(error, attempt)) throw error;
      const delay = backoffDelay(attempt, options);
      options.onRetry?.(error, attempt, delay);
      await sleep(delay, options.signal);
      if (options.signal?.aborted) throw error;
    }
  }
}

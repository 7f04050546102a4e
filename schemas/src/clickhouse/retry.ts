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

/** The default retry predicate: a connection error or a {@link StoreRefusingWritesError}. */
export function isTransientError(error: unknown): boolean {
  for (const e of causeChain(error)) {
    if (e instanceof StoreRefusingWritesError) return true;
  }
  return isConnectionError(error);
}

/** Options of {@link retrying}. */
export interface RetryOptions {
  /** Total number of calls, the first included; at least 1. */
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
  if (!Number.isInteger(options.attempts) || options.attempts < 1) {
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

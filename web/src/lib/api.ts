/**
 * The one HTTP client of the web app (spec 001 §7: every call goes through the gateway prefix,
 * default `/top100`, with cookies). Requests and responses are JSON; every response carries
 * `responseStatus`, and only 200 counts as success (spec 000 §7). Anything else becomes an
 * {@link ApiError} with the HTTP status (or `responseStatus`) and the server's `errors.message`.
 *
 * Not yet here: the 401 refresh-and-retry of spec 001 §7 (the api has no refresh endpoint yet).
 */

/** The gateway prefix every api path is under. */
export const API_PREFIX: string = import.meta.env?.VITE_API_PREFIX ?? '/top100';

/** The envelope of every api response. */
export interface ApiEnvelope<T> {
  readonly responseStatus: number;
  readonly result?: T;
  readonly errors?: { readonly message?: string };
}

/**
 * A failed api call. `status` is the HTTP status (or the body's `responseStatus` when the HTTP
 * status said success but the body did not); 0 means the server could not be reached or did not
 * answer with JSON.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    /** HTTP status of the failure, 0 for a network failure. */
    readonly status: number,
    /** The server's `errors.message`, or a description of what went wrong. */
    message: string,
  ) {
    super(message);
  }
}

/** Whether an error is the abort of a superseded request (never shown to the user). */
export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/** Options of one call. */
export interface RequestOptions {
  /** Aborts the request (a newer one replaced it, or the page went away). */
  readonly signal?: AbortSignal;
  /** Base URL to resolve the path against; by default the page's own origin. */
  readonly baseUrl?: string;
  /** The fetch to use (tests pass their own). */
  readonly fetch?: typeof fetch;
}

function messageOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const errors = (body as { errors?: unknown }).errors;
  if (typeof errors !== 'object' || errors === null) return undefined;
  const message = (errors as { message?: unknown }).message;
  return typeof message === 'string' && message ? message : undefined;
}

/**
 * Calls the api at `path` (below the prefix, starting with `/api/`) and returns its `result`.
 * A 204 gives `undefined`. Throws {@link ApiError} on failure; an aborted request rethrows the
 * abort error (see {@link isAbortError}).
 */
export async function apiRequest<T>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<T> {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const url = `${options.baseUrl ?? ''}${API_PREFIX}${path}`;
  let response: Response;
  try {
    response = await doFetch(url, {
      method,
      credentials: 'include',
      headers: body === undefined ? { Accept: 'application/json' } : { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: body === undefined ? null : JSON.stringify(body),
      signal: options.signal ?? null,
    });
  } catch (error) {
    if (isAbortError(error)) throw error;
    throw new ApiError(0, error instanceof Error ? error.message : 'Сервер недоступен');
  }
  if (response.status === 204) return undefined as T;

  let parsed: unknown;
  try {
    parsed = await response.json();
  } catch (error) {
    if (isAbortError(error)) throw error;
    throw new ApiError(response.ok ? 0 : response.status, `Некорректный ответ сервера (HTTP ${response.status})`);
  }
  const envelope = parsed as Partial<ApiEnvelope<T>> | null;
  if (!response.ok) {
    throw new ApiError(response.status, messageOf(parsed) ?? response.statusText ?? `HTTP ${response.status}`);
  }
  const status = typeof envelope?.responseStatus === 'number' ? envelope.responseStatus : response.status;
  if (status !== 200) {
    throw new ApiError(status, messageOf(parsed) ?? `responseStatus ${status}`);
  }
  return envelope?.result as T;
}

/** `GET path`. */
export function apiGet<T>(path: string, options?: RequestOptions): Promise<T> {
  return apiRequest<T>('GET', path, undefined, options);
}

/** `POST path` with a JSON body. */
export function apiPost<T>(path: string, body: unknown, options?: RequestOptions): Promise<T> {
  return apiRequest<T>('POST', path, body, options);
}

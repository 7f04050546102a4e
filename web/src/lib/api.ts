/**
 * The one HTTP client of the web app (spec 000 §7: every call goes through the gateway prefix,
 * default `/top100`, with cookies). Requests and responses are JSON; every response carries
 * `responseStatus`, and only 200 counts as success (a 204 yields an empty result). Anything else
 * becomes an {@link ApiError} with the HTTP status (or `responseStatus`) and the server's
 * `errors.message` (and `errors.fields` when the server names bad fields).
 *
 * Sessions (spec 000 §4 "Session", api/API.md "401 and refresh"): a 401 makes the client call
 * `POST /api/v1.0/auth/refresh` once — calls that fail while a refresh runs wait for it — and
 * retry the call once. When the refresh itself answers 401 the session is over: the handler set
 * by {@link setAuthLostHandler} runs (the app sends the user to the login page with the return
 * address, {@link loginAddress}) and the call fails with the 401.
 *
 * Every call carries `X-Requested-With: XMLHttpRequest`, the api's CSRF check.
 */

/** The gateway prefix every api path is under. */
export const API_PREFIX: string = import.meta.env?.VITE_API_PREFIX ?? '/top100';

/** Path of the refresh call (below the prefix). */
const REFRESH_PATH = '/api/v1.0/auth/refresh';

/** The envelope of every api response. */
interface ApiEnvelope<T> {
  readonly responseStatus: number;
  readonly result?: T;
  readonly errors?: { readonly message?: string; readonly fields?: Readonly<Record<string, readonly string[]>> };
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
    /** The server's texts per field (`errors.fields`), when it sent them. */
    readonly fields: Readonly<Record<string, readonly string[]>> = {},
  ) {
    super(message);
  }
}

/** Whether an error is the abort of a superseded request (never shown to the user). */
export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/** The status of a failure: the ApiError's, else 0. */
export function statusOf(error: unknown): number {
  return error instanceof ApiError ? error.status : 0;
}

/** Options of one call. */
export interface RequestOptions {
  /** Aborts the request (a newer one replaced it, or the page went away). */
  readonly signal?: AbortSignal;
  /** Base URL to resolve the path against; by default the page's own origin. */
  readonly baseUrl?: string;
  /** The fetch to use (tests pass their own). */
  readonly fetch?: typeof fetch;
  /**
   * What a lost session does: by default the auth-lost handler runs (off to the login page);
   * false only fails the call (reading the current user at start, where anonymous is normal).
   */
  readonly loginOnAuthLoss?: boolean;
  /** No refresh and retry on 401 (the login and registration calls). */
  readonly noRefresh?: boolean;
}

/** HTTP methods the api uses. */
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Parameters stripped from the return address (spec 000 §4: state, session_state, iss, code). */
const AUTH_PARAMS: readonly string[] = ['state', 'session_state', 'iss', 'code'];

/**
 * The login page with the return address: `/stat/projects?login&back=<current URL>`, where the
 * current URL is taken without the parameters of {@link AUTH_PARAMS}. Only the path, query and
 * hash travel (never another origin).
 */
export function loginAddress(currentHref: string): string {
  const url = new URL(currentHref, 'http://localhost');
  for (const name of AUTH_PARAMS) url.searchParams.delete(name);
  url.searchParams.delete('login');
  const back = `${url.pathname}${url.search}${url.hash}`;
  if (back === '/stat/projects' || back === '/' || back === '/stat') return '/stat/projects?login';
  return `/stat/projects?login&back=${encodeURIComponent(back)}`;
}

/**
 * Where to go after logging in: the `back` parameter when it is a path of this app, else the
 * list of sites. Anything that could leave the app (`//host`, `https:`) is refused.
 */
export function returnPath(back: string | null): string {
  if (!back || !back.startsWith('/') || back.startsWith('//') || back.startsWith('/\\')) return '/stat/projects';
  return back;
}

let authLost: () => void = () => {
  if (typeof window !== 'undefined') window.location.assign(loginAddress(window.location.href));
};

/** Sets what happens when the session cannot be refreshed (the app navigates to the login page). */
export function setAuthLostHandler(handler: () => void): void {
  authLost = handler;
}

/** Incremented by every successful refresh: a call that started before one just retries. */
let sessionEpoch = 0;
let refreshing: Promise<boolean> | null = null;

/** Forgets a refresh in flight (tests). */
export function resetSessionState(): void {
  sessionEpoch = 0;
  refreshing = null;
}

/** One refresh for every call that needs it: true when the session was renewed. */
function refreshSession(options: RequestOptions): Promise<boolean> {
  if (!refreshing) {
    const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    refreshing = doFetch(`${options.baseUrl ?? ''}${API_PREFIX}${REFRESH_PATH}`, {
      method: 'POST',
      credentials: 'include',
      headers: { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
    })
      .then(
        (response) => {
          if (response.ok) sessionEpoch += 1;
          return response.ok;
        },
        () => false,
      )
      .finally(() => {
        refreshing = null;
      });
  }
  return refreshing;
}

function errorsOf(body: unknown): { message?: string; fields: Record<string, string[]> } {
  if (typeof body !== 'object' || body === null) return { fields: {} };
  const errors = (body as { errors?: unknown }).errors;
  if (typeof errors !== 'object' || errors === null) return { fields: {} };
  const { message, fields } = errors as { message?: unknown; fields?: unknown };
  const out: Record<string, string[]> = {};
  if (typeof fields === 'object' && fields !== null) {
    for (const [key, value] of Object.entries(fields)) {
      if (Array.isArray(value)) out[key] = value.filter((v): v is string => typeof v === 'string');
    }
  }
  return typeof message === 'string' && message ? { message, fields: out } : { fields: out };
}

async function send(method: Method, path: string, body: unknown, options: RequestOptions): Promise<Response> {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const headers: Record<string, string> = { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  try {
    return await doFetch(`${options.baseUrl ?? ''}${API_PREFIX}${path}`, {
      method,
      credentials: 'include',
      headers,
      body: body === undefined ? null : JSON.stringify(body),
      signal: options.signal ?? null,
    });
  } catch (error) {
    if (isAbortError(error)) throw error;
    throw new ApiError(0, error instanceof Error ? error.message : 'Сервер недоступен');
  }
}

/** Sends a call; a 401 refreshes the session once and retries (see the module's comment). */
async function sendWithSession(method: Method, path: string, body: unknown, options: RequestOptions): Promise<Response> {
  const epoch = sessionEpoch;
  let response = await send(method, path, body, options);
  if (response.status === 401 && !options.noRefresh && path !== REFRESH_PATH) {
    // A refresh that finished after this call started already renewed the session.
    const renewed = sessionEpoch !== epoch || (await refreshSession(options));
    if (renewed) response = await send(method, path, body, options);
    if (!renewed || response.status === 401) {
      if (options.loginOnAuthLoss !== false && !options.signal?.aborted) authLost();
    }
  }
  return response;
}

/** A file the api answered with: its bytes and the name its Content-Disposition gives. */
export interface DownloadedFile {
  readonly blob: Blob;
  /** From `filename*=UTF-8''…` (or `filename="…"`); null when the answer names none. */
  readonly fileName: string | null;
}

/** The file name of a Content-Disposition header, the UTF-8 form first. */
function dispositionFileName(header: string | null): string | null {
  if (!header) return null;
  const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(header)?.[1];
  if (utf8) {
    try {
      return decodeURIComponent(utf8.trim());
    } catch {
      // a malformed escape: the plain name below
    }
  }
  return /filename="([^"]*)"/i.exec(header)?.[1] ?? null;
}

/**
 * `POST path` with a JSON body for a file (the CSV export): the answer's bytes when it succeeds;
 * a failure answers JSON with `errors.message` and throws {@link ApiError} as {@link apiRequest} does.
 */
export async function apiDownload(path: string, body: unknown, options: RequestOptions = {}): Promise<DownloadedFile> {
  const response = await sendWithSession('POST', path, body, options);
  if (!response.ok) {
    let parsed: unknown = null;
    try {
      parsed = await response.json();
    } catch (error) {
      if (isAbortError(error)) throw error;
    }
    const { message, fields } = errorsOf(parsed);
    throw new ApiError(response.status, message ?? (response.statusText || `HTTP ${response.status}`), fields);
  }
  return { blob: await response.blob(), fileName: dispositionFileName(response.headers.get('content-disposition')) };
}

/**
 * Calls the api at `path` (below the prefix, starting with `/api/` or `/logout`) and returns its
 * `result`. A 204 gives `undefined`. Throws {@link ApiError} on failure; an aborted request
 * rethrows the abort error (see {@link isAbortError}).
 */
async function apiRequest<T>(method: Method, path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
  const response = await sendWithSession(method, path, body, options);
  if (response.status === 204) return undefined as T;

  let parsed: unknown;
  try {
    parsed = await response.json();
  } catch (error) {
    if (isAbortError(error)) throw error;
    throw new ApiError(response.ok ? 0 : response.status, `Некорректный ответ сервера (HTTP ${response.status})`);
  }
  const envelope = parsed as Partial<ApiEnvelope<T>> | null;
  const { message, fields } = errorsOf(parsed);
  if (!response.ok) {
    throw new ApiError(response.status, message ?? (response.statusText || `HTTP ${response.status}`), fields);
  }
  const status = typeof envelope?.responseStatus === 'number' ? envelope.responseStatus : response.status;
  if (status !== 200 && status !== 204) {
    throw new ApiError(status, message ?? `responseStatus ${status}`, fields);
  }
  return envelope?.result as T;
}

/** `GET path`. */
export function apiGet<T>(path: string, options?: RequestOptions): Promise<T> {
  return apiRequest<T>('GET', path, undefined, options);
}

/** `POST path` with a JSON body (undefined: no body). */
export function apiPost<T>(path: string, body: unknown, options?: RequestOptions): Promise<T> {
  return apiRequest<T>('POST', path, body, options);
}

/** `PUT path` with a JSON body. */
export function apiPut<T>(path: string, body: unknown, options?: RequestOptions): Promise<T> {
  return apiRequest<T>('PUT', path, body, options);
}

/** `PATCH path` with a JSON body. */
export function apiPatch<T>(path: string, body: unknown, options?: RequestOptions): Promise<T> {
  return apiRequest<T>('PATCH', path, body, options);
}

/** `DELETE path`. */
export function apiDelete<T>(path: string, options?: RequestOptions): Promise<T> {
  return apiRequest<T>('DELETE', path, undefined, options);
}

/** Builds a query string from the defined values: `?a=1&b=x`, or '' when none. */
export function query(params: Readonly<Record<string, string | number | boolean | null | undefined>>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

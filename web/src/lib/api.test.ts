import { beforeEach, describe, expect, it } from 'vitest';
import { API_PREFIX, ApiError, apiDelete, apiGet, apiPatch, apiPost, isAbortError, loginAddress, query, resetSessionState, returnPath, setAuthLostHandler } from './api';

interface Call {
  url: string;
  init: RequestInit;
}

/** A fetch that records its calls and answers `status` with `body`. */
function fakeFetch(status: number, body: unknown, calls: Call[] = []): typeof fetch {
  return (async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    return new Response(status === 204 ? null : text, { status, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
}

describe('apiPost', () => {
  it('posts JSON under the prefix with cookies and returns the result', async () => {
    const calls: Call[] = [];
    const result = await apiPost<{ ok: number }>('/api/x', { a: 1 }, { fetch: fakeFetch(200, { responseStatus: 200, result: { ok: 1 } }, calls) });
    expect(result).toEqual({ ok: 1 });
    expect(API_PREFIX).toBe('/top100');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe('/top100/api/x');
    expect(calls[0]?.init.method).toBe('POST');
    expect(calls[0]?.init.credentials).toBe('include');
    expect(calls[0]?.init.body).toBe('{"a":1}');
    expect(new Headers(calls[0]?.init.headers).get('content-type')).toBe('application/json');
  });

  it('resolves against a base URL', async () => {
    const calls: Call[] = [];
    await apiGet('/api/y', { baseUrl: 'http://127.0.0.1:8080', fetch: fakeFetch(200, { responseStatus: 200, result: 1 }, calls) });
    expect(calls[0]?.url).toBe('http://127.0.0.1:8080/top100/api/y');
    expect(calls[0]?.init.body).toBeNull();
  });
});

describe('errors', () => {
  const fail = async (promise: Promise<unknown>) => {
    try {
      await promise;
    } catch (error) {
      return error;
    }
    throw new Error('expected a failure');
  };

  it('carries the HTTP status and errors.message', async () => {
    const error = await fail(apiGet('/api/x', { fetch: fakeFetch(400, { responseStatus: 400, errors: { message: 'bad date' } }) }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, message: 'bad date', name: 'ApiError' });
  });

  it('uses the HTTP status when the body is not JSON', async () => {
    const error = await fail(apiGet('/api/x', { fetch: fakeFetch(502, '<html>bad gateway</html>') }));
    expect(error).toMatchObject({ status: 502 });
  });

  it('fails a 200 whose responseStatus is not 200', async () => {
    const error = await fail(apiGet('/api/x', { fetch: fakeFetch(200, { responseStatus: 507, errors: { message: 'memory' } }) }));
    expect(error).toMatchObject({ status: 507, message: 'memory' });
  });

  it('gives status 0 when the server cannot be reached', async () => {
    const refuse = (async () => {
      throw new TypeError('fetch failed');
    }) as typeof fetch;
    const error = await fail(apiGet('/api/x', { fetch: refuse }));
    expect(error).toMatchObject({ status: 0, message: 'fetch failed' });
  });

  it('rethrows aborts untouched', async () => {
    const abort = (async () => {
      throw new DOMException('aborted', 'AbortError');
    }) as typeof fetch;
    const error = await fail(apiGet('/api/x', { fetch: abort }));
    expect(isAbortError(error)).toBe(true);
    expect(isAbortError(new ApiError(500, 'x'))).toBe(false);
  });
});

describe('204', () => {
  it('returns undefined', async () => {
    await expect(apiPost('/api/x', {}, { fetch: fakeFetch(204, null) })).resolves.toBeUndefined();
  });
});

describe('headers and methods', () => {
  it('sends the CSRF header on every call, and PATCH and DELETE', async () => {
    const calls: Call[] = [];
    const ok = fakeFetch(200, { responseStatus: 200, result: {} }, calls);
    await apiGet('/api/a', { fetch: ok });
    await apiPatch('/api/b', { x: 1 }, { fetch: ok });
    await apiDelete('/api/c', { fetch: ok });
    expect(calls.map((c) => c.init.method)).toEqual(['GET', 'PATCH', 'DELETE']);
    for (const call of calls) expect(new Headers(call.init.headers).get('x-requested-with')).toBe('XMLHttpRequest');
  });

  it('carries errors.fields', async () => {
    const answer = { responseStatus: 400, errors: { message: 'Request validation errors', fields: { url: ['Введен неправильный URL'], title: ['Минимум 3 символа'] } } };
    const error = await apiPost('/api/x', {}, { fetch: fakeFetch(400, answer) }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, message: 'Request validation errors', fields: { url: ['Введен неправильный URL'], title: ['Минимум 3 символа'] } });
  });

  it('builds query strings from the defined values', () => {
    expect(query({ a: 1, b: '', c: undefined, d: null, e: false, f: 'x y' })).toBe('?a=1&e=false&f=x+y');
    expect(query({ a: undefined })).toBe('');
  });
});

/**
 * A server with a session: calls answer 401 until the refresh call renews it. `refresh` is what the
 * refresh call answers (204 renews). Every call is recorded by path.
 */
function sessionServer(refresh: 204 | 401, log: string[]) {
  let valid = false;
  return (async (url: string | URL | Request, init?: RequestInit) => {
    const path = String(url).replace('/top100', '');
    log.push(`${init?.method ?? 'GET'} ${path}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (path === '/api/v1.0/auth/refresh') {
      if (refresh === 204) valid = true;
      return new Response(refresh === 204 ? null : JSON.stringify({ responseStatus: 401, errors: { message: 'Сессия истекла, войдите снова' } }), { status: refresh });
    }
    if (!valid) return new Response(JSON.stringify({ responseStatus: 401, errors: { message: 'Требуется вход' } }), { status: 401 });
    return new Response(JSON.stringify({ responseStatus: 200, result: path }), { status: 200 });
  }) as typeof fetch;
}

describe('401: one refresh, then a retry (spec 000 §4 "Session")', () => {
  beforeEach(() => resetSessionState());

  it('refreshes once for concurrent calls and retries each', async () => {
    const log: string[] = [];
    const server = sessionServer(204, log);
    let lost = 0;
    setAuthLostHandler(() => (lost += 1));
    const results = await Promise.all([apiGet('/api/a', { fetch: server }), apiGet('/api/b', { fetch: server }), apiPost('/api/c', {}, { fetch: server })]);
    expect(results).toEqual(['/api/a', '/api/b', '/api/c']);
    expect(log.filter((l) => l.includes('refresh'))).toEqual(['POST /api/v1.0/auth/refresh']);
    expect(log.filter((l) => l === 'GET /api/a')).toHaveLength(2);
    expect(lost).toBe(0);
  });

  it('a 401 of the refresh fails the calls with 401 and runs the auth-lost handler', async () => {
    const log: string[] = [];
    const server = sessionServer(401, log);
    let lost = 0;
    setAuthLostHandler(() => (lost += 1));
    const errors = await Promise.all([apiGet('/api/a', { fetch: server }).catch((e: unknown) => e), apiGet('/api/b', { fetch: server }).catch((e: unknown) => e)]);
    for (const error of errors) expect(error).toMatchObject({ status: 401 });
    expect(log.filter((l) => l.includes('refresh'))).toHaveLength(1);
    expect(log.filter((l) => l === 'GET /api/a')).toHaveLength(1);
    expect(lost).toBe(2);
  });

  it('does not send anyone to the login page when told not to (reading the current user)', async () => {
    let lost = 0;
    setAuthLostHandler(() => (lost += 1));
    const error = await apiGet('/api/v1.0/user/current', { fetch: sessionServer(401, []), loginOnAuthLoss: false }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 401 });
    expect(lost).toBe(0);
  });

  it('never refreshes for login and registration', async () => {
    const log: string[] = [];
    const error = await apiPost('/api/v1.0/auth/login', {}, { fetch: sessionServer(204, log), noRefresh: true }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 401 });
    expect(log).toEqual(['POST /api/v1.0/auth/login']);
  });
});

describe('return address', () => {
  it('is the current URL without state, session_state, iss and code', () => {
    expect(loginAddress('http://h/stat/projects/5/dashboard?state=1&session_state=2&iss=3&code=4&dateStart=today#x')).toBe(
      `/stat/projects?login&back=${encodeURIComponent('/stat/projects/5/dashboard?dateStart=today#x')}`,
    );
    expect(loginAddress('http://h/stat/projects?code=1')).toBe('/stat/projects?login');
    expect(loginAddress('/stat/create')).toBe(`/stat/projects?login&back=${encodeURIComponent('/stat/create')}`);
  });

  it('goes back only to paths of this app', () => {
    expect(returnPath('/stat/projects/5/dashboard?x=1')).toBe('/stat/projects/5/dashboard?x=1');
    expect(returnPath(null)).toBe('/stat/projects');
    expect(returnPath('https://evil.example/')).toBe('/stat/projects');
    expect(returnPath('//evil.example/')).toBe('/stat/projects');
    expect(returnPath('/\\evil.example/')).toBe('/stat/projects');
  });
});

import { describe, expect, it } from 'vitest';
import { API_PREFIX, ApiError, apiGet, apiPost, isAbortError } from './api';

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

/** Rendering components in happy-dom for tests: a root, React's act, and cleanup. */
import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { vi } from 'vitest';
import type { CurrentUser } from '@stat/schemas/accounts';

// React warns about act() outside a test environment that declares it.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** A rendered tree; `unmount` when done. */
export interface Rendered {
  readonly container: HTMLElement;
  unmount(): void;
  /** Text of the whole tree. */
  text(): string;
}

/** The trees rendered and not yet unmounted, for {@link cleanup}. */
const mounted = new Set<Rendered>();

/** Renders `node` into a fresh container and waits for effects. */
export async function render(node: ReactNode): Promise<Rendered> {
  const container = document.createElement('div');
  document.body.appendChild(container);
  let root: Root | null = null;
  await act(async () => {
    root = createRoot(container);
    root.render(node);
  });
  const rendered: Rendered = {
    container,
    unmount: () => {
      mounted.delete(rendered);
      act(() => root?.unmount());
      container.remove();
    },
    text: () => container.textContent ?? '',
  };
  mounted.add(rendered);
  return rendered;
}

/** Unmounts every tree a test rendered and puts back the globals it stubbed: the tests' afterEach. */
export function cleanup(): void {
  for (const rendered of mounted) rendered.unmount();
  vi.unstubAllGlobals();
}

/** Lets pending promises and effects settle. */
export async function settle(ms = 0): Promise<void> {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, ms));
  });
}

/** A fetch answering each api path (below the prefix) with the given results. */
export function fakeApi(results: Record<string, unknown>): typeof fetch {
  return (async (input: string | URL | Request) => {
    const url = new URL(String(input), 'http://localhost');
    const path = url.pathname.replace(/^\/top100/, '');
    const key = Object.keys(results).find((k) => path === k || path.startsWith(`${k}?`) || `${path}${url.search}`.startsWith(k));
    if (key === undefined) return new Response(JSON.stringify({ responseStatus: 404, errors: { message: 'not found' } }), { status: 404 });
    return new Response(JSON.stringify({ responseStatus: 200, result: results[key] }), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
}

/** An answer of the api: `body` as JSON with the given status. */
export function apiAnswer(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/**
 * A fetch that asks `route` for the answer to each call, by the call's path below the api prefix;
 * a path it leaves unanswered (undefined) gets the api's 404.
 */
export function routedApi(route: (path: string, init: RequestInit | undefined) => Response | undefined): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const path = new URL(String(input), 'http://localhost').pathname.replace(/^\/top100/, '');
    return route(path, init) ?? apiAnswer(404, { responseStatus: 404, errors: { message: 'not found' } });
  }) as typeof fetch;
}

/** Dispatches a DOM event inside act(). */
export async function fire(target: Element | null | undefined, event: Event): Promise<void> {
  await act(async () => {
    target?.dispatchEvent(event);
  });
}

/** Waits until `check` passes (it throws until then), up to `timeoutMs`; for answers that arrive when they arrive. */
export async function until(check: () => void, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await settle(20);
    }
  }
}

/** A logged-in user as `user/current` answers, a site owner (USER, role 7) unless told otherwise. */
export function testUser(over: Partial<CurrentUser> = {}): CurrentUser {
  return {
    login: 'me@example.com',
    id: 1,
    email: 'me@example.com',
    user_name: '',
    auth_type: 'password',
    is_top100_staff: false,
    role_permissions: ['create_projects'],
    role_id: 7,
    snackbars: {},
    metaTips: {},
    hints: { all: false, reports: [], tips: [], views: 0 },
    ...over,
  };
}

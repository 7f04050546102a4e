// @vitest-environment happy-dom
/** The demo's message on a report page: what it says while the demo's traffic is still being generated. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { fakeApi, render, until, type Rendered } from '../../testing/render';
import { forgetDemoFilled, ReportHints, type HintSubject } from './ReportHints';

const realFetch = globalThis.fetch;
let view: Rendered | null = null;
beforeEach(() => {
  localStorage.clear();
});
afterEach(() => {
  view?.unmount();
  view = null;
  globalThis.fetch = realFetch;
  // Each test is a new page: what an earlier one learnt of the demo is forgotten.
  forgetDemoFilled();
});

const subject: HintSubject = { name: 'geo', title: 'География', metrics: ['visits'], tips: [] };

/** The demo-state calls made since the last `open`. */
let stateCalls = 0;

async function open(projectId: number, filling: boolean): Promise<Rendered> {
  const api = fakeApi({ '/api/v1.0/demo/state': { filling } });
  stateCalls = 0;
  globalThis.fetch = ((input: string | URL | Request, init?: RequestInit) => {
    if (String(input).includes('/api/v1.0/demo/state')) stateCalls += 1;
    return api(input, init);
  }) as typeof fetch;
  view?.unmount();
  view = await render(
    <MemoryRouter initialEntries={[`/stat/projects/${projectId}/new/report/geo`]}>
      <Routes>
        <Route path="/stat/projects/:projectId/new/report/geo" element={<ReportHints subject={subject} hints={[null, () => undefined]} />} />
      </Routes>
    </MemoryRouter>,
  );
  return view;
}

describe('the demo message', () => {
  it('says the demo is still filling while its traffic is being generated', async () => {
    const { container } = await open(7596044, true);
    await until(() => expect(container.querySelector('[data-testid="demo-filling"]')?.textContent).toContain('Данные демо-сайта ещё загружаются'));
    expect(container.querySelector('[data-testid="demo-hint"]')?.textContent).toContain('Это демонстрационный сайт');
  });

  it('says nothing of it once the demo is filled', async () => {
    const { container } = await open(7596044, false);
    await until(() => expect(container.querySelector('[data-testid="demo-hint"]')).not.toBeNull());
    // Let the answer come: it must not add the line.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(container.querySelector('[data-testid="demo-filling"]')).toBeNull();
  });

  it('does not ask again on a later demo page once the server said the demo is filled', async () => {
    const first = await open(7596044, false);
    await until(() => expect(first.container.querySelector('[data-testid="demo-hint"]')).not.toBeNull());
    await until(() => expect(stateCalls).toBe(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = await open(7596044, false);
    await until(() => expect(second.container.querySelector('[data-testid="demo-hint"]')).not.toBeNull());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stateCalls).toBe(0);
    expect(second.container.querySelector('[data-testid="demo-filling"]')).toBeNull();
  });

  it('asks again on a later demo page while the demo is still filling', async () => {
    const first = await open(7596044, true);
    await until(() => expect(first.container.querySelector('[data-testid="demo-filling"]')).not.toBeNull());
    expect(stateCalls).toBe(1);
    const second = await open(7596044, true);
    await until(() => expect(second.container.querySelector('[data-testid="demo-filling"]')).not.toBeNull());
    expect(stateCalls).toBe(1);
  });
});

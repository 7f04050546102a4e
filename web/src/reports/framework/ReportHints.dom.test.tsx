// @vitest-environment happy-dom
/** The demo's message on a report page: what it says while the demo's traffic is still being generated. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { fakeApi, render, until, type Rendered } from '../../testing/render';
import { ReportHints, type HintSubject } from './ReportHints';

const realFetch = globalThis.fetch;
let view: Rendered | null = null;
beforeEach(() => {
  localStorage.clear();
});
afterEach(() => {
  view?.unmount();
  view = null;
  globalThis.fetch = realFetch;
});

const subject: HintSubject = { name: 'geo', title: 'География', metrics: ['visits'], tips: [] };

async function open(projectId: number, filling: boolean): Promise<Rendered> {
  globalThis.fetch = fakeApi({ '/api/v1.0/demo/state': { filling } });
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
});

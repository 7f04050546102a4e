// @vitest-environment happy-dom
/** The switcher «Мои сайты» (spec 000 §2.4) with a fake api. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import type { LinkedProject } from '@stat/schemas/projects';
import { cleanup, fakeApi, fire, render, until, type Rendered } from '../testing/render';
import ProjectSwitcher from './ProjectSwitcher';

const linked = (n: number): LinkedProject[] =>
  Array.from({ length: n }, (_, i) => ({ id: 8000000 + i, title: `Сайт ${i}`, url: `https://s${i}.example`, favicon: null, can_edit_project: true }));

let view: Rendered | null = null;
afterEach(cleanup);

function Where() {
  const location = useLocation();
  return <output data-testid="where">{`${location.pathname}${location.search}`}</output>;
}

async function renderSwitcher(n: number, path = '/stat/projects/8000000/settings/access', rows = linked(n)) {
  vi.stubGlobal('fetch', fakeApi({ '/api/v1.0/user/current/projects': { data: rows, total: n } }));
  view = await render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="*" element={<><Where /><ProjectSwitcher currentId={8000000} onClose={() => undefined} /></>} />
      </Routes>
    </MemoryRouter>,
  );
  await until(() => expect(document.querySelectorAll('[data-testid="switcher-row"]')).toHaveLength(n));
  return view;
}

describe('project switcher', () => {
  it('marks the current project and offers «Переключиться» on the others', async () => {
    await renderSwitcher(3);
    const rows = [...document.querySelectorAll('[data-testid="switcher-row"]')];
    expect(rows[0]?.textContent).toContain('Счётчик 8000000');
    expect(rows[0]?.textContent).toContain('Текущий');
    expect(rows[1]?.textContent).toContain('Переключиться');
    expect(document.querySelector('[data-testid="switcher-search"]')).toBeNull();
  });

  it('shows the search «Введите название сайта» from 10 projects', async () => {
    await renderSwitcher(10);
    expect(document.querySelector<HTMLInputElement>('[data-testid="switcher-search"]')?.placeholder).toBe('Введите название сайта');
  });

  it('names a project without a title «Нет названия» (spec 000 §8)', async () => {
    await renderSwitcher(2, undefined, linked(2).map((p, i) => (i === 1 ? { ...p, title: '' } : p)));
    const titles = [...document.querySelectorAll('[data-testid="switcher-row"]')].map((r) => r.querySelector('[data-testid="switcher-title"]')?.textContent);
    expect(titles).toEqual(['Сайт 0', 'Нет названия']);
  });

  it('switching keeps the section and the query', async () => {
    const v = await renderSwitcher(2, '/stat/projects/8000000/new/report/summary?dateStart=today');
    const other = [...document.querySelectorAll('[data-testid="switcher-row"]')][1];
    await fire(other?.querySelector('button'), new MouseEvent('click', { bubbles: true }));
    expect(v.container.querySelector('[data-testid="where"]')?.textContent).toBe('/stat/projects/8000001/new/report/summary?dateStart=today');
  });
});

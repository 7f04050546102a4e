// @vitest-environment happy-dom
/**
 * The funnels page against a fake api: the stored last opened funnel is chosen; a report over the
 * memory limit (507) shows its page with the period picker instead of the graph and the table; the
 * period is the URL's, as a report's, and the reports' «Период:» picker changes it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Funnel } from '@stat/schemas/funnels';
import type { Project } from '@stat/schemas/projects';
import { lastDays, pickRange, pressedRange } from '../../testing/period';
import { inProject } from '../../testing/project-page';
import { apiAnswer as answer, cleanup, render, routedApi, until, type Rendered } from '../../testing/render';
import FunnelsPage from './FunnelsPage';

const project = {
  id: 8000001,
  title: 'Мой сайт',
  permissions: { can_edit_project: true },
} as unknown as Project;

const funnel = (id: number, title: string): Funnel => ({
  id,
  title,
  steps: [
    { step_number: 1, step_title: 'Каталог', goals: [{ goal_id: 1, goal_title: 'Каталог' }] },
    { step_number: 2, step_title: 'Корзина', goals: [{ goal_id: 2, goal_title: 'Корзина' }] },
  ],
});

const REPORT = {
  metrics: ['visitors_all', 'visitors_left_step', 'visitors_left_step_share', 'conversion_first_step', 'conversion_previous_step'],
  table: [
    { stepNumber: 1, stepTitle: 'Каталог', metrics: [3, 2, 66.67, 100, 100], metricsWithNotPrevStep: [3, 2, 66.67, 100, 100] },
    { stepNumber: 2, stepTitle: 'Корзина', metrics: [1, 0, 0.004, 33.33, 33.33], metricsWithNotPrevStep: [4, 0, 0, 133.33, 133.33] },
  ],
  graph: [
    { stepNumber: 1, stepTitle: 'Каталог', visitorsPrevStep: 3, visitorsNotPrevStep: 0, visitorsSum: 3, convFirstStep: 100, convFirstStepSum: 100 },
    { stepNumber: 2, stepTitle: 'Подписка на рассылку', visitorsPrevStep: 1, visitorsNotPrevStep: 3, visitorsSum: 4, convFirstStep: 33.33, convFirstStepSum: 133.33 },
  ],
  sample: 1,
};

let reportStatus = 200;
const asked: unknown[] = [];
beforeEach(() => {
  window.localStorage.clear();
  reportStatus = 200;
  asked.length = 0;
  vi.stubGlobal('fetch', routedApi((path, init) => {
    if (path === '/api/v1.0/8000001/funnels') return answer(200, { responseStatus: 200, result: { funnels: [funnel(1, 'Первая'), funnel(2, 'Вторая')], totals: 2 } });
    if (path === '/api/report/v1.0/eventbase/8000001/funnel') {
      asked.push(JSON.parse(String(init?.body)));
      return reportStatus === 200 ? answer(200, { responseStatus: 200, result: REPORT }) : answer(reportStatus, { responseStatus: reportStatus, errors: { message: 'Превышен лимит памяти' } });
    }
    return undefined;
  }));
});
afterEach(cleanup);

async function renderPage(path = '/stat/projects/8000001/funnels'): Promise<Rendered> {
  return render(inProject(project, path, <FunnelsPage />));
}

const rows = (v: Rendered) => Array.from(v.container.querySelectorAll('[data-testid="funnel-row"]')).map((r) => Array.from(r.querySelectorAll('td')).map((td) => td.textContent));

describe('the funnels page', () => {
  it('says on each disabled button why: «Создать», «Изменить», «Копировать», «Удалить» to an anonymous visitor', async () => {
    const v = await renderPage();
    await until(() => expect(rows(v)).toHaveLength(2));
    const buttons = ['funnel-create', 'funnel-edit', 'funnel-copy', 'funnel-delete'].map((id) => {
      const button = v.container.querySelector(`[data-testid="${id}"]`);
      return [id, button?.hasAttribute('disabled'), button?.closest('[title]')?.getAttribute('title')];
    });
    const why = 'Войдите, чтобы создавать и менять воронки.';
    expect(buttons).toEqual([
      ['funnel-create', true, why],
      ['funnel-edit', true, why],
      ['funnel-copy', true, why],
      ['funnel-delete', true, why],
    ]);
  });

  it('opens the funnel opened last, and shows its table with percents of 2 decimals and «< 0.01»', async () => {
    window.localStorage.setItem('funnelLastOpened:8000001', '2');
    const v = await renderPage();
    await until(() => expect(rows(v)).toHaveLength(2));
    expect((asked[0] as { funnel_id: number }).funnel_id).toBe(2);
    expect(rows(v)).toEqual([
      ['1. Каталог', '3', '2', '66,67', '100,00', '100,00'],
      ['2. Корзина', '1', '0', '< 0.01', '33,33', '33,33'],
    ]);
  });

  it('writes a step title whole in the graph, with its tooltip past 18 characters; CSS ellipsizes it only when the column is full', async () => {
    const v = await renderPage();
    await until(() => expect(v.container.querySelectorAll('[data-testid="funnel-bar-title"]')).toHaveLength(2));
    const titles = Array.from(v.container.querySelectorAll('[data-testid="funnel-bar-title"]')).map((t) => [t.textContent, t.getAttribute('title')]);
    expect(titles).toEqual([
      ['1. Каталог', null],
      ['2. Подписка на рассылку', 'Подписка на рассылку'],
    ]);
  });

  it('a report over the memory limit (507) shows its page with the period picker, not the report', async () => {
    reportStatus = 507;
    const v = await renderPage();
    await until(() => expect(v.container.querySelector('[data-testid="error-page"]')?.getAttribute('data-status')).toBe('507'));
    expect(v.container.querySelector('[data-testid="error-page"] [data-testid="period-picker"]')).not.toBeNull();
    expect(v.container.querySelector('[data-testid="funnel-table"]')).toBeNull();
  });

  it('asks for the period its address names (a link shared earlier), and for the one picked in «Период:»', async () => {
    const v = await renderPage('/stat/projects/8000001/funnels?dateStart=2025-03-01&dateEnd=2025-03-07');
    await until(() => expect(asked).toHaveLength(1));
    expect(asked[0]).toMatchObject({ date_start: '2025-03-01', date_end: '2025-03-07' });
    expect(v.container.querySelector('[data-testid="period-dates"]')?.textContent).toBe('01.03.2025 – 07.03.2025');

    await pickRange(v, '30days');
    await until(() => expect(asked).toHaveLength(2));
    const [start, end] = lastDays(30).split('..');
    expect(asked[1]).toMatchObject({ date_start: start, date_end: end });
    expect(pressedRange(v)).toBe('30days');
  });
});

// @vitest-environment happy-dom
/**
 * The goals page against a fake api: the counts are over the reports' «Период:» picker's period,
 * kept in the URL as the conversions page keeps it; an address without one (a link from before)
 * opens on the last 7 days.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DimensionFilterRule } from '@stat/schemas/filters';
import type { Goal } from '@stat/schemas/goals';
import { addDays } from '@stat/schemas/period';
import type { Project } from '@stat/schemas/projects';
import { DEMO_PROJECT_ID } from '../../app/project';
import { SessionProvider } from '../../app/session';
import { moscowToday } from '../../lib/dates';
import { lastDays, pickRange, pressedRange } from '../../testing/period';
import { Address, address, inProject } from '../../testing/project-page';
import { testGoal } from '../../testing/fixtures';
import { apiAnswer as answer, cleanup, render, routedApi, testUser, until, type Rendered } from '../../testing/render';
import GoalsPage from './GoalsPage';

const project = { id: 8000003, title: 'Мой сайт', url: 'https://www.my-site.example/', cleanedUrl: 'my-site.example', permissions: { can_edit_project: true } } as unknown as Project;

const goal = testGoal({
  id: 7,
  project_id: 8000003,
  title: 'Покупка',
  conditions: [{ key: 'event_name', op: '=', value: 'buy' }],
  body: { dimension_filters: [{ key: 'event_name', op: '=', value: 'buy' }] },
  email: 'owner@example.com',
  update_date: '2025-03-01T10:00:00.000Z',
});

/** The goals the list call answers. */
let listed: Goal[] = [goal];
/** The periods the counts were asked for, as «start..end». */
const asked: string[] = [];
let view: Rendered | null = null;
beforeEach(() => {
  asked.length = 0;
  listed = [goal];
  window.localStorage.clear();
  vi.stubGlobal('fetch', routedApi((path, init) => {
    if (path === '/api/v1.0/user/goals') return answer(200, { responseStatus: 200, result: { goals: listed, totals: listed.length } });
    if (path === '/api/report/v1.0/eventbase/8000003/goals') {
      const body = JSON.parse(String(init?.body)) as { date_start: string; date_end: string };
      asked.push(`${body.date_start}..${body.date_end}`);
      // A different count for each period asked, to see which one the table shows.
      const reaches = body.date_start === '2025-03-01' ? 12_345 : asked.length;
      return answer(200, { responseStatus: 200, result: { date_start: body.date_start, date_end: body.date_end, goals: [{ goal_id: 7, reaches, visits: 2, visitors: 1 }] } });
    }
    return undefined;
  }));
});
afterEach(cleanup);

async function renderAt(path: string): Promise<Rendered> {
  return render(
    inProject(
      project,
      path,
      <>
        <GoalsPage />
        <Address />
      </>,
    ),
  );
}

const reaches = (v: Rendered) => v.container.querySelector('[data-testid="goal-reaches"]')?.textContent;

describe('the goals page period', () => {
  it('opens a link without a period on the last 7 days, and counts over the range picked in «Период:», kept in the URL', async () => {
    const v = await renderAt('/stat/projects/8000003/goals');
    await until(() => expect(asked).toEqual([lastDays(7)]));
    // The browser tab (spec 001 §2): page title, site url, product, project id.
    await until(() => expect(document.title).toBe('Целевые события – my-site.example – Статистика – 8000003'));
    await until(() => expect(reaches(v)).toBe('1'));
    expect(pressedRange(v)).toBe('7days');
    expect(v.container.querySelector('[data-testid="goals-period"]')).toBeNull();

    await pickRange(v, '30days');
    await until(() => expect(address(v)).toBe('/stat/projects/8000003/goals?dateStart=30days&dateEnd=today'));
    await until(() => expect(asked.at(-1)).toBe(lastDays(30)));
    await until(() => expect(reaches(v)).toBe('2'));
    expect(pressedRange(v)).toBe('30days');

    // A calendar range, from the dates form: last week, Monday to Sunday (Moscow), written as dates.
    await pickRange(v, 'last_week');
    const today = moscowToday();
    const weekday = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7;
    const monday = addDays(today, -weekday - 7);
    await until(() => expect(asked.at(-1)).toBe(`${monday}..${addDays(monday, 6)}`));
    expect(address(v)).toBe(`/stat/projects/8000003/goals?dateStart=${monday}&dateEnd=${addDays(monday, 6)}`);
  });

  it('opens on the calendar dates its address names', async () => {
    const v = await renderAt('/stat/projects/8000003/goals?dateStart=2025-03-01&dateEnd=2025-03-07');
    await until(() => expect(reaches(v)).toBe('12\u00a0345'));
    expect(asked).toEqual(['2025-03-01..2025-03-07']);
    expect(v.container.querySelector('[data-testid="period-dates"]')?.textContent).toBe('01.03.2025 – 07.03.2025');
  });
});

async function renderAs(loggedIn: boolean, projectId: number, canEdit: boolean): Promise<Rendered> {
  const shown = { ...project, id: projectId, permissions: { can_edit_project: canEdit } } as unknown as Project;
  const page = inProject(shown, `/stat/projects/${projectId}/goals`, <GoalsPage />);
  view = await render(loggedIn ? <SessionProvider initial={{ status: 'user', user: testUser() }}>{page}</SessionProvider> : page);
  await until(() => expect(view?.container.querySelectorAll('[data-testid="goal-row"]').length).toBe(1));
  return view;
}

describe('the goal row menu «⋯»', () => {
  const menus = (v: Rendered) => v.container.querySelectorAll('[data-testid="goal-actions"]').length;

  it('is not shown to an anonymous visitor, who may do nothing on a goal', async () => {
    expect(menus(await renderAs(false, 8000003, true))).toBe(0);
  });

  it('is not shown to a registered user who is not an administrator of the demo project', async () => {
    expect(menus(await renderAs(true, DEMO_PROJECT_ID, false))).toBe(0);
  });

  it('is shown to the goal\'s owner on their own project', async () => {
    expect(menus(await renderAs(true, 8000003, true))).toBe(1);
  });
});

describe('the disabled «Новое целевое событие» and «Выбрать из автоцелей» say why', () => {
  /** Each header button: disabled, and the title of the wrapper that shows it on hover. */
  const buttons = (v: Rendered) =>
    ['goal-new', 'goal-from-auto'].map((id) => {
      const button = v.container.querySelector(`[data-testid="${id}"]`);
      return { id, disabled: button?.hasAttribute('disabled'), reason: button?.closest('[title]')?.getAttribute('title') ?? null };
    });

  it('to a registered user on the demo project', async () => {
    expect(buttons(await renderAs(true, DEMO_PROJECT_ID, false))).toEqual([
      { id: 'goal-new', disabled: true, reason: 'На демо-сайте нельзя создавать и менять цели.' },
      { id: 'goal-from-auto', disabled: true, reason: 'На демо-сайте нельзя создавать и менять цели.' },
    ]);
  });

  it('to an anonymous visitor', async () => {
    expect(buttons(await renderAs(false, DEMO_PROJECT_ID, false))).toEqual([
      { id: 'goal-new', disabled: true, reason: 'Войдите, чтобы создавать и менять цели.' },
      { id: 'goal-from-auto', disabled: true, reason: 'Войдите, чтобы создавать и менять цели.' },
    ]);
  });

  it('and are enabled, with no tooltip, for the owner of the project', async () => {
    expect(buttons(await renderAs(true, 8000003, true))).toEqual([
      { id: 'goal-new', disabled: false, reason: null },
      { id: 'goal-from-auto', disabled: false, reason: null },
    ]);
  });
});

describe('the goal conditions in words', () => {
  it('names the class of an event condition in Russian, never by its code', async () => {
    const share: DimensionFilterRule[] = [
      { key: 'event_class', op: '=', value: 'cv' },
      { key: 'event_name', op: '=', value: 'share', extra: { eventClass: 'cv' } },
    ];
    listed = [{ ...goal, conditions: share, body: { dimension_filters: share } }];
    const v = await renderAt('/stat/projects/8000003/goals');
    const cell = () => v.container.querySelector('[data-testid="goal-row"] td:nth-child(2)')?.textContent;
    await until(() => expect(cell()).toBe('Название события: равно share (свои события)'));
  });
});

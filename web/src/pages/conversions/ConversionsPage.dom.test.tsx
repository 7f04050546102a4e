// @vitest-environment happy-dom
/**
 * The conversions list and a conversion's page against a fake api: a card opens its conversion
 * on the period the list shows («30 дней» stays «30 дней»), and «← Конверсии» goes back to the
 * list on that period.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Route, Routes } from 'react-router-dom';
import type { Conversion } from '@stat/schemas/conversions';
import type { Project } from '../../data/calls';
import { lastDays, pickRange, pressedRange } from '../../testing/period';
import { Address, address, inProject } from '../../testing/project-page';
import { fire, render, until, type Rendered } from '../../testing/render';
import ConversionPage from './ConversionPage';
import ConversionsPage from './ConversionsPage';

const project = { id: 8000002, title: 'Мой сайт', permissions: { can_edit_project: true } } as unknown as Project;

const conversion: Conversion = {
  id: 41,
  project_id: 8000002,
  title: 'Покупки',
  description: '',
  metric: 'visits',
  numerator_goal_id: 5,
  denominator_goal_id: null,
  access: 'own',
  is_favorite: false,
  email: { email: 'owner@example.com' },
  is_owner: true,
  attribution: 'last_click',
  attribution_window: 7,
  update_date: '2025-03-01T10:00:00.000Z',
};

/** The periods the figures were asked for, as «start..end». */
const asked: string[] = [];
let view: Rendered | null = null;
beforeEach(() => {
  asked.length = 0;
  window.localStorage.clear();
  vi.stubGlobal('fetch', (async (input: string | URL | Request, init?: RequestInit) => {
    const path = new URL(String(input), 'http://localhost').pathname.replace(/^\/top100/, '');
    const answer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (path === '/api/v1.0/user/conversions') return answer(200, { responseStatus: 200, result: { conversions: [conversion], totals: 1 } });
    if (path === '/api/v1.0/conversion/41') return answer(200, { responseStatus: 200, result: conversion });
    if (path === '/api/report/v1.0/eventbase/8000002/conversions') {
      const body = JSON.parse(String(init?.body)) as { date_start: string; date_end: string };
      asked.push(`${body.date_start}..${body.date_end}`);
      // No figures: the page shows its placeholders (the graphs are not what is tested here).
      return answer(200, { responseStatus: 200, result: { conversions: [] } });
    }
    return answer(404, { responseStatus: 404, errors: { message: 'not found' } });
  }) as typeof fetch);
});
afterEach(() => {
  view?.unmount();
  view = null;
  vi.unstubAllGlobals();
});

async function renderAt(path: string): Promise<Rendered> {
  view = await render(
    inProject(
      project,
      path,
      <>
        <Routes>
          <Route path="/stat/projects/:projectId/conversions" element={<ConversionsPage />} />
          <Route path="/stat/projects/:projectId/conversions/:conversionId" element={<ConversionPage />} />
        </Routes>
        <Address />
      </>,
    ),
  );
  return view;
}

const click = (v: Rendered, selector: string) => fire(v.container.querySelector(selector), new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 }));

describe('a conversion opened from the list', () => {
  it('shows the period the list shows, and «← Конверсии» goes back to the list on it', async () => {
    const v = await renderAt('/stat/projects/8000002/conversions');
    await until(() => expect(v.container.querySelector('[data-testid="conversion-card-title"]')).not.toBeNull());
    await pickRange(v, '30days');
    await until(() => expect(address(v)).toBe('/stat/projects/8000002/conversions?dateStart=30days&dateEnd=today'));
    const thirtyDays = lastDays(30);
    await until(() => expect(asked.at(-1)).toBe(thirtyDays));
    expect(v.container.querySelector('[data-testid="conversion-card-title"]')?.getAttribute('href')).toBe('/stat/projects/8000002/conversions/41?dateStart=30days&dateEnd=today');

    asked.length = 0;
    await click(v, '[data-testid="conversion-card-title"]');
    await until(() => expect(v.container.querySelector('[data-testid="conversion-page"]')).not.toBeNull());
    expect(address(v)).toBe('/stat/projects/8000002/conversions/41?dateStart=30days&dateEnd=today');
    expect(pressedRange(v)).toBe('30days');
    await until(() => expect(asked).toEqual([thirtyDays]));

    await click(v, '[data-testid="conversion-back"]');
    await until(() => expect(v.container.querySelector('[data-testid="conversions-page"]')).not.toBeNull());
    expect(address(v)).toBe('/stat/projects/8000002/conversions?dateStart=30days&dateEnd=today');
    expect(pressedRange(v)).toBe('30days');
  });

  it('opens on the calendar dates the list shows, as written', async () => {
    const v = await renderAt('/stat/projects/8000002/conversions?dateStart=2025-03-01&dateEnd=2025-03-07');
    await until(() => expect(v.container.querySelector('[data-testid="conversion-card-title"]')).not.toBeNull());
    expect(v.container.querySelector('[data-testid="conversion-card-title"]')?.getAttribute('href')).toBe('/stat/projects/8000002/conversions/41?dateStart=2025-03-01&dateEnd=2025-03-07');
    await click(v, '[data-testid="conversion-card-title"]');
    await until(() => expect(v.container.querySelector('[data-testid="conversion-page"]')).not.toBeNull());
    expect(v.container.querySelector('[data-testid="period-dates"]')?.textContent).toBe('01.03.2025 – 07.03.2025');
    await until(() => expect(asked.at(-1)).toBe('2025-03-01..2025-03-07'));
  });
});

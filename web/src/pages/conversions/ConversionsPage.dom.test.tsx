// @vitest-environment happy-dom
/**
 * The conversions list and a conversion's page against a fake api: a card opens its conversion
 * on the period the list shows («30 дней» stays «30 дней»), and «← Конверсии» goes back to the
 * list on that period; the list reads a sample of 0.1, the page the sample of its «Точность:».
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Route, Routes } from 'react-router-dom';
import type { Project } from '@stat/schemas/projects';
import { lastDays, pickRange, pressedRange } from '../../testing/period';
import { Address, address, inProject } from '../../testing/project-page';
import { testConversion } from '../../testing/fixtures';
import { apiAnswer as answer, cleanup, fire, render, routedApi, until, type Rendered } from '../../testing/render';
import ConversionPage from './ConversionPage';
import ConversionsPage from './ConversionsPage';

const project = { id: 8000002, title: 'Мой сайт', permissions: { can_edit_project: true } } as unknown as Project;

const conversion = testConversion({ id: 41, project_id: 8000002, title: 'Покупки', numerator_goal_id: 5, email: { email: 'owner@example.com' }, update_date: '2025-03-01T10:00:00.000Z' });

/** The periods the figures were asked for, as «start..end». */
const asked: string[] = [];
/** Every report call's body, by the call's last path segment (conversions, conversion_table, eventbase_conversion_…). */
const bodies = new Map<string, { sample?: number }[]>();
/** The sample the fake api says it read (null: the one asked), as the api does for today's period. */
let answeredSample: number | null = null;
beforeEach(() => {
  asked.length = 0;
  bodies.clear();
  answeredSample = null;
  window.localStorage.clear();
  vi.stubGlobal('fetch', routedApi((path, init) => {
    if (path === '/api/v1.0/user/conversions') return answer(200, { responseStatus: 200, result: { conversions: [conversion], totals: 1 } });
    if (path === '/api/v1.0/conversion/41') return answer(200, { responseStatus: 200, result: conversion });
    if (path.startsWith('/api/report/')) {
      const name = path.split('/').at(-1) ?? '';
      const body = JSON.parse(String(init?.body)) as { sample?: number };
      bodies.set(name, [...(bodies.get(name) ?? []), body]);
    }
    if (path === '/api/report/v1.0/eventbase/8000002/conversions') {
      const body = JSON.parse(String(init?.body)) as { date_start: string; date_end: string; sample?: number };
      asked.push(`${body.date_start}..${body.date_end}`);
      // No figures: the page shows its placeholders (the graphs are not what is tested here).
      return answer(200, { responseStatus: 200, result: { conversions: [], sample: answeredSample ?? body.sample ?? 1 } });
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
        <Routes>
          <Route path="/stat/projects/:projectId/conversions" element={<ConversionsPage />} />
          <Route path="/stat/projects/:projectId/conversions/:conversionId" element={<ConversionPage />} />
        </Routes>
        <Address />
      </>,
    ),
  );
}

/** The samples the calls named `name` sent, in order (undefined: none sent). */
const samplesOf = (name: string): (number | undefined)[] => (bodies.get(name) ?? []).map((b) => b.sample);

const click = (v: Rendered, selector: string) => fire(v.container.querySelector(selector), new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 }));

describe('«Новая конверсия» disabled', () => {
  it('says why: an anonymous visitor is asked to log in', async () => {
    const v = await renderAt('/stat/projects/8000002/conversions');
    await until(() => expect(v.container.querySelector('[data-testid="conversion-card-title"]')).not.toBeNull());
    const button = v.container.querySelector('[data-testid="conversion-new"]');
    expect([button?.hasAttribute('disabled'), button?.closest('[title]')?.getAttribute('title')]).toEqual([true, 'Войдите, чтобы создавать и менять конверсии.']);
  });
});

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

describe('«Точность:» of the conversions', () => {
  /** Moves the open slider to a step (0: 1 %, 1: 10 %, 2: 100 %); React tracks the value through the native setter. */
  const move = async (v: Rendered, step: string) => {
    const input = v.container.querySelector<HTMLInputElement>('[data-testid="sample-slider"]');
    if (!input) throw new Error('no slider');
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, step);
    await fire(input, new Event('input', { bubbles: true }));
  };
  const shown = (v: Rendered) => v.container.querySelector('[data-testid="sample-value"]');
  const PAGE = '/stat/projects/8000002/conversions/41?dateStart=2025-03-01&dateEnd=2025-03-07';

  it('the list reads a tenth of the visitors (spec 002 §9)', async () => {
    const v = await renderAt('/stat/projects/8000002/conversions?dateStart=2025-03-01&dateEnd=2025-03-07');
    await until(() => expect(samplesOf('conversions')).toEqual([0.1]));
    expect(v.container.querySelector('[data-testid="sample-picker"]')).toBeNull();
  });

  it('on a conversion starts at 1; moved, it goes to the URL and every call of the page, and shows the sample the answer says', async () => {
    const v = await renderAt(PAGE);
    await until(() => expect(samplesOf('conversions')).toEqual([1]));
    await until(() => expect(samplesOf('conversion_table')).toEqual([1]));
    await until(() => expect(samplesOf('eventbase_conversion_traffic_sources')).toEqual([1]));
    expect([shown(v)?.textContent, shown(v)?.getAttribute('data-sample')]).toEqual(['100%', '1']);

    await click(v, '[data-testid="sample-value"]');
    await move(v, '0');
    // Nothing is asked while the slider is open (spec 001 §4: applies on close).
    expect(samplesOf('conversions')).toEqual([1]);
    await fire(document.body, new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    await until(() => expect(address(v)).toBe(`${PAGE}&sample=0.01`));
    await until(() => expect(samplesOf('conversions')).toEqual([1, 0.01]));
    for (const call of ['conversion_table', 'eventbase_conversion_traffic_sources', 'eventbase_conversion_audience', 'eventbase_conversion_technology']) {
      await until(() => expect(samplesOf(call).at(-1)).toBe(0.01));
    }
    await until(() => expect(shown(v)?.getAttribute('data-sample')).toBe('0.01'));
    expect(shown(v)?.textContent).toBe('1%');

    // Back to 100 %: the default leaves the URL plain.
    await click(v, '[data-testid="sample-value"]');
    await move(v, '2');
    await fire(document.body, new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    await until(() => expect(address(v)).toBe(PAGE));
    await until(() => expect(samplesOf('conversions').at(-1)).toBe(1));

    // The api read everything though a tenth was asked (a small period): the toolbar says so, and
    // the slider does not open, since no choice would change the answer; the URL keeps the choice.
    answeredSample = 1;
    await click(v, '[data-testid="sample-value"]');
    await move(v, '1');
    await fire(document.body, new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    await until(() => expect(samplesOf('conversions').at(-1)).toBe(0.1));
    await until(() => expect(shown(v)?.hasAttribute('disabled')).toBe(true));
    expect([shown(v)?.textContent, shown(v)?.getAttribute('title')]).toEqual(['100%', 'За этот период отчёт строится по всем данным: выборка его не ускорит']);
    expect(address(v)).toBe(`${PAGE}&sample=0.1`);
  });

  it('reads a sample named in the URL; one outside (0, 1] is the default', async () => {
    const v = await renderAt(`${PAGE}&sample=0.1`);
    await until(() => expect(samplesOf('conversions')).toEqual([0.1]));
    await until(() => expect(shown(v)?.textContent).toBe('10%'));
    v.unmount();
    bodies.clear();
    await renderAt(`${PAGE}&sample=7`);
    await until(() => expect(samplesOf('conversions')).toEqual([1]));
  });
});

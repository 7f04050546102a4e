// @vitest-environment happy-dom
/**
 * The filter dialog against a fake api: the empty state, the menu's search, a checkbox list with
 * its next page on scroll (and none once all are loaded), the NOT operator, the rule limit, a
 * textarea and a period rule; «Применить» hands over the rules the api takes.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { fire, render, settle, until, type Rendered } from '../../testing/render';
import type { MetricFilterRule } from '@stat/schemas/filters';
import { FilterDialog } from './FilterDialog';
import { formToApi, type FilterBlock } from './form';

interface ValuesBody {
  offset: number;
  search?: string;
}

let calls: { path: string; body: ValuesBody }[];

/** Event classes, and the names of class cv. */
function events(body: ValuesBody & { parents?: string[] }) {
  const option = (value: string, visits: number) => ({ value, title: value, visits, can_be_expanded: !body.parents });
  const data = body.parents ? [option('signup', 5), option('buy', 3)] : [option('cv', 9), option('ub', 4)];
  return { data, meta: { total: data.length, offset: 0 } };
}

/** 70 cities, 50 a page; a search finds one. */
function answer(body: ValuesBody) {
  const all = Array.from({ length: 70 }, (_, i) => ({ value: 1000 + i, title: `Город ${i}`, visits: 70 - i, can_be_expanded: false }));
  const found = body.search ? all.filter((c) => c.title.endsWith(` ${body.search}`)) : all;
  return { data: found.slice(body.offset, body.offset + 50), meta: { total: found.length, offset: body.offset } };
}

beforeEach(() => {
  calls = [];
  vi.stubGlobal('fetch', async (input: string, init: RequestInit) => {
    const path = new URL(input, 'http://localhost').pathname.replace(/^\/top100/, '');
    const body = JSON.parse(String(init.body ?? '{}')) as ValuesBody;
    calls.push({ path, body });
    const result = path.endsWith('/filter/events') ? events(body) : answer(body);
    return new Response(JSON.stringify({ responseStatus: 200, result }), { status: 200 });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

const q = <T extends Element = HTMLElement>(selector: string) => document.body.querySelector<T>(selector);
const qa = (selector: string) => [...document.body.querySelectorAll<HTMLElement>(selector)];

async function type(selector: string, value: string) {
  const input = q<HTMLInputElement | HTMLTextAreaElement>(selector);
  if (!input) throw new Error(`no ${selector}`);
  await act(async () => {
    const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(input), 'value')?.set;
    setter?.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

async function click(selector: string) {
  await fire(q(selector), new MouseEvent('click', { bubbles: true }));
}

describe('FilterDialog', () => {
  let view: Rendered;
  let applied: FilterBlock[] | null;
  let appliedMetrics: MetricFilterRule[] = [];

  beforeEach(async () => {
    applied = null;
    view = await render(
      <FilterDialog projectId="42" period={{ start: '2026-01-01', end: '2026-01-07' }} initial={[]} metrics={['visits', 'avg_view_duration']} initialMetrics={[]} onApply={(b, m) => {
        applied = b;
        appliedMetrics = m;
      }} onCancel={() => undefined} />,
    );
  });
  afterEach(() => view.unmount());

  it('builds rules of every kind the base reports need and applies them', async () => {
    expect(q('[data-testid="filter-blocks"]')?.textContent).toBe('Параметры не выбраныПока не выбрана ни одна группа параметров');

    // The menu's search keeps the matching dimension only.
    await type('[data-testid="filter-menu-search"]', 'гор');
    expect(qa('[data-testid="filter-menu-item"]').map((b) => b.dataset.key)).toEqual(['geo_city']);
    await click('[data-testid="filter-menu-item"][data-key="geo_city"]');
    await until(() => expect(qa('[data-testid="value-option"]')).toHaveLength(50));
    expect(calls[0]).toEqual({ path: '/api/report/v1.0/eventbase/42/filter/geo_city', body: { date_start: '2026-01-01', date_end: '2026-01-07', offset: 0 } });

    // Scrolled to the end: the next page; once all 70 are there, no more calls.
    await fire(q('[data-testid="value-list"]'), new Event('scroll'));
    await until(() => expect(qa('[data-testid="value-option"]')).toHaveLength(70));
    expect(calls.map((c) => c.body.offset)).toEqual([0, 50]);
    await fire(q('[data-testid="value-list"]'), new Event('scroll'));
    await settle(10);
    expect(calls).toHaveLength(2);

    // The value search asks again with it, after the pause in typing.
    await type('[data-testid="value-search"]', '7');
    await until(() => expect(qa('[data-testid="value-option"]').map((o) => o.dataset.value)).toEqual(['1007']), 3000);
    expect(calls.at(-1)?.body).toMatchObject({ search: '7', offset: 0 });

    await click('[data-testid="value-option"][data-value="1007"]');
    await click('[data-testid="filter-block"][data-key="geo_city"] [data-op="NOT"]');
    // Checkbox rules: at most 3, the add button goes at the limit.
    await click('[data-testid="filter-add-rule"]');
    await click('[data-testid="filter-add-rule"]');
    expect(qa('[data-testid="filter-block"][data-key="geo_city"] [data-testid="filter-rule"]')).toHaveLength(3);
    expect(q('[data-testid="filter-block"][data-key="geo_city"] [data-testid="filter-add-rule"]')).toBeNull();

    await type('[data-testid="filter-menu-search"]', 'Адрес страницы');
    await click('[data-testid="filter-menu-item"][data-key="url"]');
    await type('[data-testid="filter-textarea"]', '/news*\n@Спорт');
    await type('[data-testid="filter-menu-search"]', 'Глубина');
    await click('[data-testid="filter-menu-item"][data-key="view_depth"]');
    await type('[data-testid="filter-number"]', '3a');
    expect(q<HTMLInputElement>('[data-testid="filter-number"]')?.value).toBe('3');

    // A metric filter: the duration typed as mm:ss, sent as seconds.
    await type('[data-testid="filter-menu-search"]', 'Время просмотра');
    await click('[data-testid="filter-menu-metric"][data-key="avg_view_duration"]');
    await type('[data-testid="filter-metric-value"]', '0130');
    expect(q<HTMLInputElement>('[data-testid="filter-metric-value"]')?.value).toBe('01:30');

    await click('[data-testid="filter-apply"]');
    expect(appliedMetrics).toEqual([{ key: 'avg_view_duration', op: '>', value: 90 }]);
    expect(applied).not.toBeNull();
    expect(formToApi(applied ?? [])).toEqual([
      { key: 'geo_city', op: '!=', value: 1007 },
      { key: 'url', op: 'multilike', value: ['/news*', '@*Спорт*'] },
      { key: 'view_depth', op: '>', value: 3 },
    ]);
  });

  it('an event filter: the first class by default, names of the chosen class', async () => {
    await click('[data-testid="filter-menu-item"][data-key="event_name"]');
    await until(() => expect(qa('[data-testid="value-option"]').map((o) => o.dataset.value)).toEqual(['signup', 'buy']));
    expect(q<HTMLSelectElement>('[data-testid="filter-event-class"]')?.value).toBe('cv');
    // The class reads in words, as in the chips: never its code.
    expect(q<HTMLSelectElement>('[data-testid="filter-event-class"]')?.selectedOptions[0]?.textContent).toBe('свои события');
    expect(calls.map((c) => [c.path, (c.body as { parents?: unknown }).parents])).toEqual([
      ['/api/report/v1.0/eventbase/42/filter/events', undefined],
      ['/api/report/v1.0/eventbase/42/filter/events', ['cv']],
    ]);
    await click('[data-testid="value-option"][data-value="buy"]');
    await click('[data-testid="filter-apply"]');
    expect(formToApi(applied ?? [])).toEqual([
      { key: 'event_class', op: '=', value: 'cv' },
      { key: 'event_name', op: '=', value: 'buy', extra: { eventClass: 'cv' } },
    ]);
  });

  it('refuses more rules than the api takes: a checkbox AND of 21 values is 21 rules', async () => {
    await click('[data-testid="filter-menu-item"][data-key="geo_city"]');
    await until(() => expect(qa('[data-testid="value-option"]')).toHaveLength(50));
    await click('[data-testid="filter-block"] [data-op="AND"]');
    for (const option of qa('[data-testid="value-option"]').slice(0, 20)) await fire(option, new MouseEvent('click', { bubbles: true }));
    expect(q('[data-testid="filter-too-many"]')).toBeNull();
    await fire(qa('[data-testid="value-option"]')[20], new MouseEvent('click', { bubbles: true }));
    expect(q('[data-testid="filter-too-many"]')?.textContent).toBe('Не больше 20 условий');
    expect(q<HTMLButtonElement>('[data-testid="filter-apply"]')?.disabled).toBe(true);
  });

  it('a radio filter takes one value', async () => {
    await type('[data-testid="filter-menu-search"]', 'Авторизация');
    await click('[data-testid="filter-menu-item"][data-key="auth_top100"]');
    await until(() => expect(qa('[data-testid="value-option"]')).toHaveLength(50));
    expect(qa('[data-testid="value-option"]').every((o) => o.getAttribute('type') === 'radio')).toBe(true);
    expect(q('[data-testid="filter-block"] [data-op]')).toBeNull();
    expect(q('[data-testid="filter-add-rule"]')).toBeNull();
    await click('[data-testid="value-option"][data-value="1001"]');
    await click('[data-testid="value-option"][data-value="1002"]');
    await click('[data-testid="filter-apply"]');
    expect(formToApi(applied ?? [])).toEqual([{ key: 'auth_top100', op: '=', value: 1002 }]);
  });

  it('«Сбросить настройки» empties the form', async () => {
    await click('[data-testid="filter-menu-item"][data-key="view_depth"]');
    expect(qa('[data-testid="filter-block"]')).toHaveLength(1);
    await click('[data-testid="filter-reset-form"]');
    expect(qa('[data-testid="filter-block"]')).toHaveLength(0);
    expect(q('[data-testid="filter-blocks"]')?.textContent).toContain('Параметры не выбраны');
  });
});

/// <reference path="../../server/src/testing/provided.d.ts" />
/**
 * The filters in a real browser against the running service. On the demo project (anonymous, as
 * every visitor): the dialog applies a browser filter and a negative device filter, the table and
 * graph are asked with them, the chips read as the spec words them and the totals are what the
 * table endpoint answers for the same filtered request; «Посещаемость» takes the same filters from
 * its URL. On a new user's own site: a filter is saved as a template, and after a reload applied
 * from the dropdown; «(изменён)», a duplicate title and the deletion follow.
 *
 * Screenshots go to test-output/screens/filters-*.png.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { BrowserContext, Page, Request } from 'playwright-core';
import { chromiumForTests, VISITOR_USER_AGENT } from '../../server/src/testing/browser';
import { eventClassTitle } from '@stat/schemas/filters';
import { createSite, openPage, pageWithErrors, registerUser, russianContext } from './testing/browser';

const base = inject('apiUrl').replace(/\/+$/, '');
const collectorUrl = inject('collectorUrl').replace(/\/+$/, '');

/** One page view sent to the collector for a project, and stored (its owner's `context` reads the project). */
async function installed(projectId: string, context: BrowserContext): Promise<void> {
  const sent = await fetch(`${collectorUrl}/hit`, {
    method: 'POST',
    headers: { 'user-agent': VISITOR_USER_AGENT },
    body: JSON.stringify({ p: Number(projectId), u: 'https://example.ru/', v: 'installcheck01' }),
  });
  expect(sent.status).toBe(204);
  const isSet = async () => ((await (await context.request.get(`${base}/top100/api/v1.0/project/${projectId}`)).json()) as { result?: { counter_is_set?: boolean } }).result?.counter_is_set;
  await expect.poll(isSet, { timeout: 30_000 }).toBe(true);
}
const DEMO = '7596044';
const SCREENS = fileURLToPath(new URL('../../test-output/screens/', import.meta.url));
const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

async function api<T>(path: string, body: unknown): Promise<T> {
  const response = await fetch(`${base}/top100${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(response.status).toBe(200);
  return ((await response.json()) as { result: T }).result;
}

type Body = Record<string, unknown> & { dimension_filters?: unknown[]; parents?: unknown };

const isCall = (project: string, name: string, kind: 'table' | 'graph', filtered: boolean) => (r: Request) =>
  r.method() === 'POST' &&
  r.url().endsWith(`/report/${project}/${name}/${kind}`) &&
  !(r.postDataJSON() as Body).parents &&
  Array.isArray((r.postDataJSON() as Body).dimension_filters) === filtered;

function shownTotals(page: Page, testId: string): Promise<Record<string, number>> {
  return page.$$eval(`[data-testid="${testId}"] [data-metric]`, (cells) =>
    Object.fromEntries(cells.map((c) => [c.getAttribute('data-metric') ?? '', Number(c.getAttribute('data-value'))])),
  );
}

async function expectApiTotals(page: Page, project: string, name: string, testId: string, sent: Body): Promise<Record<string, number>> {
  const direct = await api<{ metrics: string[]; totals: number[] }>(`/api/report/v1.0/report/${project}/${name}/table`, sent);
  const expected = Object.fromEntries(direct.metrics.map((m, i) => [m, direct.totals[i] ?? NaN]));
  await expect.poll(() => shownTotals(page, testId), { timeout: 30_000 }).toEqual(expected);
  return expected;
}

const chipTexts = (page: Page) => page.$$eval('[data-testid="filter-chip"]', (chips) => chips.map((c) => `${(c.textContent ?? '').replace(/×$/, '').trim()}|${c.getAttribute('data-negative')}`));

async function shot(page: Page, name: string): Promise<void> {
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${SCREENS}filters-${name}.png`, fullPage: false });
}

/** Opens the dialog, adds a dimension from the menu (found by the menu's search) and waits for its values. */
async function addDimension(page: Page, search: string, key: string): Promise<void> {
  await page.fill('[data-testid="filter-menu-search"]', search);
  await page.click(`[data-testid="filter-menu-item"][data-key="${key}"]`);
  await page.waitForSelector(`[data-testid="filter-block"][data-key="${key}"] [data-testid="value-option"]`, { timeout: 30_000 });
}

describe('filters in a browser', () => {
  const browser = chromiumForTests();

  beforeAll(() => {
    mkdirSync(SCREENS, { recursive: true });
  });

  it('applies filters from the dialog: requests, chips, totals of the filtered request, removal', async () => {
    const { page, errors } = await openPage(browser(), 1440);
    try {
      const first = page.waitForRequest(isCall(DEMO, 'traffic_sources', 'table', false));
      await page.goto(`${base}/stat/projects/${DEMO}/new/report/traffic_sources?dateStart=7days&dateEnd=today&groupBy=day&sample=1`);
      const unfiltered = (await first).postDataJSON() as Body;
      const all = await expectApiTotals(page, DEMO, 'traffic_sources', 'report-totals', unfiltered);

      await page.click('[data-testid="filters-button"]');
      await page.waitForSelector('[data-testid="filter-dialog"]');
      expect(await page.textContent('[data-testid="filter-blocks"]')).toContain('Параметры не выбраны');
      await shot(page, 'dialog-empty');

      // Browser: the first value (most visits); OR of one value is include.
      await addDimension(page, 'Браузер', 'browser_family');
      const option = page.locator('[data-testid="filter-block"][data-key="browser_family"] [data-testid="value-option"]').first();
      const browserValue = (await option.getAttribute('data-value')) ?? '';
      await option.check();
      // Device type, NOT its first value: a negative rule.
      await addDimension(page, 'Тип устройства', 'device_type');
      await page.click('[data-testid="filter-block"][data-key="device_type"] [data-op="NOT"]');
      const device = page.locator('[data-testid="filter-block"][data-key="device_type"] [data-testid="value-option"]').first();
      const deviceValue = (await device.getAttribute('data-value')) ?? '';
      const deviceTitle = (await device.locator('xpath=..').textContent()) ?? '';
      await device.check();
      await shot(page, 'dialog');

      const tableCall = page.waitForRequest(isCall(DEMO, 'traffic_sources', 'table', true));
      const graphCall = page.waitForRequest(isCall(DEMO, 'traffic_sources', 'graph', true));
      await page.click('[data-testid="filter-apply"]');
      const sent = (await tableCall).postDataJSON() as Body;
      const rules = [
        { key: 'browser_family', op: 'include', value: [browserValue] },
        { key: 'device_type', op: '!=', value: deviceValue },
      ];
      expect(sent.dimension_filters).toEqual(rules);
      expect(sent.offset).toBe(0);
      expect(((await graphCall).postDataJSON() as Body).dimension_filters).toEqual(rules);
      expect(JSON.parse(new URL(page.url()).searchParams.get('globalFilters') ?? '[]')).toEqual(rules);

      // The global filters go with the menu to other reports.
      const geoLink = await page.getAttribute('[data-testid="report-menu"] a[href*="/new/report/geo?"]', 'href');
      expect(JSON.parse(new URL(geoLink ?? '', base).searchParams.get('globalFilters') ?? '[]')).toEqual(rules);
      const chips = await chipTexts(page);
      expect(chips[0]).toBe(`Браузер: равно ${browserValue}|false`);
      expect(chips[1]).toMatch(/^Тип устройства: не равно .+\|true$/);
      expect(deviceTitle).toContain(chips[1]?.replace(/^Тип устройства: не равно /, '').replace(/\|true$/, ''));

      const filtered = await expectApiTotals(page, DEMO, 'traffic_sources', 'report-totals', sent);
      expect(filtered.visits).toBeLessThan(all.visits ?? 0);
      await shot(page, 'chips');

      // The dialog opens with the current filters; a period rule on view depth is added.
      await page.click('[data-testid="filters-button"]');
      expect(await page.$$eval('[data-testid="filter-block"]', (b) => b.map((x) => x.getAttribute('data-key')))).toEqual(['browser_family', 'device_type']);
      await page.fill('[data-testid="filter-menu-search"]', 'Глубина');
      await page.click('[data-testid="filter-menu-item"][data-key="view_depth"]');
      await page.selectOption('[data-testid="filter-block"][data-key="view_depth"] [data-testid="filter-comparison"]', '>=');
      await page.fill('[data-testid="filter-block"][data-key="view_depth"] [data-testid="filter-number"]', '2');
      const withDepth = page.waitForRequest((r) => isCall(DEMO, 'traffic_sources', 'table', true)(r) && (r.postDataJSON() as Body).dimension_filters?.length === 3);
      await page.click('[data-testid="filter-apply"]');
      expect(((await withDepth).postDataJSON() as Body).dimension_filters?.[2]).toEqual({ key: 'view_depth', op: '>=', value: 2 });
      expect((await chipTexts(page))[2]).toBe('Глубина просмотра: больше или равно 2|false');

      // Removing the browser chip asks again without it.
      const without = page.waitForRequest((r) => isCall(DEMO, 'traffic_sources', 'table', true)(r) && (r.postDataJSON() as Body).dimension_filters?.length === 2);
      await page.locator('[data-testid="filter-chip"]').first().locator('[data-testid="filter-chip-remove"]').click();
      expect(((await without).postDataJSON() as Body).dimension_filters).toEqual([rules[1], { key: 'view_depth', op: '>=', value: 2 }]);

      // «Сбросить» clears them all.
      const reset = page.waitForRequest(isCall(DEMO, 'traffic_sources', 'table', false));
      await page.click('[data-testid="filters-reset"]');
      await reset;
      expect(new URL(page.url()).searchParams.has('globalFilters')).toBe(false);
      expect(await page.$$('[data-testid="filter-chip"]')).toHaveLength(0);

      // An event filter: the class listed first, one of its names; narrowed by extra.eventClass.
      await page.click('[data-testid="filters-button"]');
      await page.fill('[data-testid="filter-menu-search"]', 'Название события');
      await page.click('[data-testid="filter-menu-item"][data-key="event_name"]');
      await page.waitForSelector('[data-testid="filter-block"][data-key="event_name"] [data-testid="value-option"]', { timeout: 30_000 });
      const eventClass = await page.inputValue('[data-testid="filter-event-class"]');
      const eventOption = page.locator('[data-testid="filter-block"][data-key="event_name"] [data-testid="value-option"]').first();
      const eventName = (await eventOption.getAttribute('data-value')) ?? '';
      await eventOption.check();
      await shot(page, 'dialog-event');
      const eventCall = page.waitForRequest(isCall(DEMO, 'traffic_sources', 'table', true));
      await page.click('[data-testid="filter-apply"]');
      const eventSent = (await eventCall).postDataJSON() as Body;
      expect(eventSent.dimension_filters).toEqual([
        { key: 'event_class', op: '=', value: eventClass },
        { key: 'event_name', op: '=', value: eventName, extra: { eventClass } },
      ]);
      expect(await chipTexts(page)).toEqual([`Название события: равно ${eventName} (${eventClassTitle(eventClass)})|false`]);
      await expectApiTotals(page, DEMO, 'traffic_sources', 'report-totals', eventSent);

      // A metric filter next to it: rows with more than 5 visits.
      await page.click('[data-testid="filters-button"]');
      await page.fill('[data-testid="filter-menu-search"]', 'Визиты');
      await page.click('[data-testid="filter-menu-metric"][data-key="visits"]');
      await page.fill('[data-testid="filter-metric-value"]', '5');
      const metricCall = page.waitForRequest((r) => isCall(DEMO, 'traffic_sources', 'table', true)(r) && Array.isArray((r.postDataJSON() as Body).metric_filters));
      await page.click('[data-testid="filter-apply"]');
      const metricSent = (await metricCall).postDataJSON() as Body;
      expect(metricSent.metric_filters).toEqual([{ key: 'visits', op: '>', value: 5 }]);
      expect(metricSent.dimension_filters).toEqual(eventSent.dimension_filters);
      expect(new URL(page.url()).searchParams.get('tableFilters')).toBe('visits:>:5');
      expect((await chipTexts(page))[1]).toBe('Визиты: больше 5|false');
      await expectApiTotals(page, DEMO, 'traffic_sources', 'report-totals', metricSent);

      // «Посещаемость» takes filters from its URL: table and graph with them, the endpoint's totals.
      const summaryTable = page.waitForRequest(isCall(DEMO, 'summary', 'table', true));
      const summaryGraph = page.waitForRequest(isCall(DEMO, 'summary', 'graph', true));
      await page.goto(`${base}/stat/projects/${DEMO}/new/report/summary?dateStart=7days&dateEnd=today&groupBy=day&globalFilters=${encodeURIComponent(JSON.stringify([rules[0]]))}`);
      const summarySent = (await summaryTable).postDataJSON() as Body;
      expect(summarySent.dimension_filters).toEqual([rules[0]]);
      expect(((await summaryGraph).postDataJSON() as Body).dimension_filters).toEqual([rules[0]]);
      await expectApiTotals(page, DEMO, 'summary', 'summary-totals', summarySent);
      await shot(page, 'summary');
      expect(await chipTexts(page)).toEqual([`Браузер: равно ${browserValue}|false`]);

      // Chips over one line fold under «Показать ещё» and unfold with «Свернуть».
      const many = ['/a', '/b', '/c', '/d', '/e', '/f', '/g', '/h'].map((u) => ({ key: 'url', op: 'like', value: `${u}/some/long/path/of/the/site*` }));
      await page.goto(`${base}/stat/projects/${DEMO}/new/report/page_urls?dateStart=7days&dateEnd=today&groupBy=day&globalFilters=${encodeURIComponent(JSON.stringify(many))}`);
      await page.waitForSelector('[data-testid="chips-more"]');
      expect(await page.textContent('[data-testid="chips-more"]')).toBe('Показать ещё');
      const folded = await page.$eval('[data-testid="filter-chips"]', (e) => e.getBoundingClientRect().height);
      await page.click('[data-testid="chips-more"]');
      expect(await page.textContent('[data-testid="chips-more"]')).toBe('Свернуть');
      expect(await page.$eval('[data-testid="filter-chips"]', (e) => e.getBoundingClientRect().height)).toBeGreaterThan(folded);
      await shot(page, 'chips-more');

      // An invalid filter in the URL is dropped from it; a country id in it is named by the
      // dictionary (a page opened with it has not seen the dialog's list).
      const countries = await api<{ data: { value: number; title: string }[] }>(`/api/report/v1.0/eventbase/${DEMO}/filter/geo_country`, { date_start: '7days', date_end: 'today' });
      const country = countries.data.find((c) => c.title !== String(c.value));
      expect(country).toBeDefined();
      const geoRules = `[{"key":"nope","op":"=","value":1},{"key":"geo_country","op":"include","value":[${country?.value}]}]`;
      const fresh = await browser().newPage({ viewport: { width: 1440, height: 900 } });
      try {
        await fresh.goto(`${base}/stat/projects/${DEMO}/new/report/geo?dateStart=7days&dateEnd=today&groupBy=day&globalFilters=${encodeURIComponent(geoRules)}`);
        await expect.poll(() => new URL(fresh.url()).searchParams.get('globalFilters'), { timeout: 30_000 }).toBe(`[{"key":"geo_country","op":"include","value":[${country?.value}]}]`);
        await expect.poll(() => chipTexts(fresh), { timeout: 30_000 }).toEqual([`Страна: равно ${country?.title}|false`]);
      } finally {
        await fresh.close();
      }
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 180_000);

  it('saves a filter as a template, applies it from the dropdown after a reload, edits and deletes it', async () => {
    const context = await russianContext(browser(), 1280);
    const { page, errors } = await pageWithErrors(context);
    try {
      await registerUser(page, base, `filters-${stamp}@example.com`);
      const created = await createSite(context, base, `https://filters-${stamp}.example`, 'Сайт с фильтрами');
      expect(created.status).toBe(200);
      const project = String(created.id);
      // The site's counter is installed (one hit stored): a site without hits shows its install code instead of reports.
      await installed(project, context);

      const rule = { key: 'url', op: 'multilike', value: ['/news*', '@*sport*'] };
      const report = `${base}/stat/projects/${project}/new/report/page_urls?dateStart=7days&dateEnd=today&groupBy=day`;
      await page.goto(`${report}&globalFilters=${encodeURIComponent(JSON.stringify([rule]))}`);
      await page.waitForSelector('[data-testid="filter-chip"]');
      expect(await chipTexts(page)).toEqual(['Адрес страницы: равно /news* или @sport|false']);
      // No templates yet: the dropdown is disabled, the save button is not.
      await expect.poll(() => page.isDisabled('[data-testid="saved-filters"]'), { timeout: 15_000 }).toBe(true);
      await page.click('[data-testid="save-filter"]');
      await page.waitForSelector('[data-testid="template-form"]');
      expect(await page.textContent('[data-testid="template-form"]')).toContain('Сохранение шаблона');
      await page.click('[data-testid="template-submit"]');
      expect(await page.textContent('[data-testid="template-form"]')).toContain('Поле не заполнено');
      await page.fill('[data-testid="template-title"]', 'Новости и спорт');
      expect(await page.textContent('[data-testid="template-form"]')).toContain(`Осталось символов: ${255 - 'Новости и спорт'.length}`);
      await page.check('[data-testid="template-shared"]');
      await shot(page, 'save-modal');
      await page.click('[data-testid="template-submit"]');
      await page.getByRole('status').filter({ hasText: 'Создан новый шаблон' }).waitFor();
      expect(await page.textContent('[data-testid="saved-filters"]')).toContain('Новости и спорт');

      // A reload without filters: the template is in the dropdown; choosing it applies its rule.
      await page.goto(report);
      await expect.poll(() => page.isDisabled('[data-testid="saved-filters"]'), { timeout: 15_000 }).toBe(false);
      await page.click('[data-testid="saved-filters"]');
      await page.waitForSelector('[data-testid="saved-filters-menu"]');
      await shot(page, 'saved-dropdown');
      const applied = page.waitForRequest(isCall(project, 'page_urls', 'table', true));
      await page.click('[data-testid="saved-filter"]');
      expect(((await applied).postDataJSON() as Body).dimension_filters).toEqual([rule]);
      expect(await page.textContent('[data-testid="saved-filters"]')).toBe('Новости и спорт▾');

      // Another filter, a textarea one from the dialog: the template reads «(изменён)»; «Сохранить
      // как новый» with its title is refused.
      await page.click('[data-testid="filters-button"]');
      await page.fill('[data-testid="filter-menu-search"]', 'Заголовок');
      await page.click('[data-testid="filter-menu-item"][data-key="title"]');
      await page.click('[data-testid="filter-block"][data-key="title"] [data-op="NOT"]');
      await page.fill('[data-testid="filter-block"][data-key="title"] [data-testid="filter-textarea"]', 'x*');
      const changed = page.waitForRequest((r) => isCall(project, 'page_urls', 'table', true)(r) && (r.postDataJSON() as Body).dimension_filters?.length === 2);
      await page.click('[data-testid="filter-apply"]');
      expect(((await changed).postDataJSON() as Body).dimension_filters).toEqual([rule, { key: 'title', op: 'nlike', value: 'x*' }]);
      await expect.poll(() => page.textContent('[data-testid="saved-filters"]'), { timeout: 15_000 }).toBe('Новости и спорт (изменён)▾');
      expect(await chipTexts(page)).toEqual(['Адрес страницы: равно /news* или @sport|false', 'Заголовок страницы: не равно x*|true']);
      await page.click('[data-testid="save-filter"]');
      await page.click('[data-testid="save-as-new"]');
      await page.fill('[data-testid="template-title"]', ' Новости и спорт ');
      expect(await page.textContent('[data-testid="template-form"]')).toContain('Шаблон с таким названием уже существует');
      await page.keyboard.press('Escape');
      // «Сохранить текущий» stores the changed filters in it.
      await page.click('[data-testid="save-filter"]');
      await page.click('[data-testid="save-current"]');
      await page.getByRole('status').filter({ hasText: 'Шаблон обновлен' }).waitFor();
      await expect.poll(() => page.textContent('[data-testid="saved-filters"]'), { timeout: 15_000 }).toBe('Новости и спорт▾');

      // Edit the title, then delete it.
      await page.click('[data-testid="saved-filters"]');
      await page.click('[data-testid="saved-filter-actions"]');
      await page.click('[data-testid="saved-filter-edit"]');
      expect(await page.textContent('[data-testid="template-form"]')).toContain('Редактирование шаблона');
      await page.fill('[data-testid="template-title"]', 'Без новостей');
      await page.click('[data-testid="template-submit"]');
      await page.getByRole('status').filter({ hasText: 'Шаблон обновлен' }).waitFor();
      await expect.poll(() => page.textContent('[data-testid="saved-filters"]'), { timeout: 15_000 }).toBe('Без новостей▾');
      await page.click('[data-testid="saved-filters"]');
      await page.click('[data-testid="saved-filter-actions"]');
      await page.click('[data-testid="saved-filter-delete"]');
      await page.waitForSelector('[data-testid="confirm-dialog"]');
      expect(await page.textContent('[data-testid="confirm-dialog"]')).toContain('Удаление шаблона');
      await page.click('[data-testid="confirm-button"]');
      await page.getByRole('status').filter({ hasText: 'Шаблон удалён' }).waitFor();
      await expect.poll(() => page.isDisabled('[data-testid="saved-filters"]'), { timeout: 15_000 }).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);
});

/// <reference path="../../server/src/testing/provided.d.ts" />
/**
 * The conversions pages in a real browser against the running service. A new user's site gets
 * three visits through the collector: one from a search engine that goes on to the cart, two
 * direct ones without it (the counter check's and one more). With a goal «Корзина» on the page
 * address, the user creates a conversion in the page (the form first refuses an empty one); its
 * card shows 1 of 3 visits, 33,33 %, as the api's report does. The single page shows the same
 * figures and «Детализация» by source; switching the attribution model puts it in the URL and in
 * the table's request. The widgets show the hand-counted percents, the first column's sort flips
 * each click, «Скачать в CSV» downloads the rows shown, the settings add a dimension. The list
 * reads a tenth of the visitors (spec 002 §9), the single page what its «Точность:» says.
 *
 * Screenshots go to test-output/screens/conversions-*.png.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumForTests, VISITOR_USER_AGENT } from '../../server/src/testing/browser';
import { createSite, pageWithErrors, registerUser, russianContext } from './testing/browser';

const base = inject('apiUrl').replace(/\/+$/, '');
const collectorUrl = inject('collectorUrl').replace(/\/+$/, '');
const SCREENS = fileURLToPath(new URL('../../test-output/screens/', import.meta.url));
const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const JSON_HEADERS = { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };

/**
 * A screenshot; a whole page one from its top. Taken while scrolled, a whole page shot keeps the
 * scrolled window's sticky parts where that window had them: the shell's header halfway down and
 * the table's header rows stuck below its last row, leaving an empty band above the first one.
 */
async function shot(page: Page, name: string, fullPage = true): Promise<void> {
  if (fullPage) await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${SCREENS}conversions-${name}.png`, fullPage });
}

async function hit(projectId: string, fields: { u: string; v: string; r?: string }): Promise<void> {
  const sent = await fetch(`${collectorUrl}/hit`, { method: 'POST', headers: { 'user-agent': VISITOR_USER_AGENT }, body: JSON.stringify({ p: Number(projectId), ...fields }) });
  expect(sent.status).toBe(204);
}

/** The detail table's rows as «source | goal visits | visits | conversion», in the table's order. */
const tableRows = (page: Page) =>
  page.$$eval('[data-testid="conversion-table"] tbody tr', (trs) =>
    trs.map((tr) => Array.from(tr.querySelectorAll('th, td')).map((cell) => (cell.textContent ?? '').trim()).join(' | ')).filter((row) => row !== ''),
  );

/** A widget's legend as «category: percent». */
const legend = (page: Page, widget: string) =>
  page.$$eval(`[data-testid="conversion-widget-${widget}-legend"] li`, (items) => items.map((li) => Array.from(li.querySelectorAll('span')).map((s) => (s.textContent ?? '').trim()).filter(Boolean).join(': ')));

describe('the conversions pages', () => {
  const browser = chromiumForTests();
  beforeAll(() => {
    mkdirSync(SCREENS, { recursive: true });
  });

  it('creates a conversion, shows its value on the card and its report by source; the attribution model goes into the request', async () => {
    const context = await russianContext(browser(), 1280, { acceptDownloads: true });
    const { page, errors } = await pageWithErrors(context);
    try {
      await registerUser(page, base, `conversions-${stamp}@example.com`);
      const created = await createSite(context, base, `https://conversions-${stamp}.example`, 'Сайт с конверсиями');
      expect(created.status).toBe(200);
      const project = String(created.id);

      // Three visits: a direct one to the home page, one from a search engine that reaches the cart, a direct one to «about».
      await hit(project, { u: 'https://example.ru/', v: 'installcheck01' });
      await hit(project, { u: 'https://example.ru/', v: 'visitorone01', r: 'https://yandex.ru/search/?text=shop' });
      await hit(project, { u: 'https://example.ru/cart', v: 'visitorone01', r: 'https://example.ru/' });
      await hit(project, { u: 'https://example.ru/about', v: 'visitortwo02' });
      const isSet = async () => ((await (await context.request.get(`${base}/top100/api/v1.0/project/${project}`)).json()) as { result?: { counter_is_set?: boolean } }).result?.counter_is_set;
      await expect.poll(isSet, { timeout: 30_000 }).toBe(true);

      const goal = await context.request.post(`${base}/top100/api/v1.0/goal`, {
        headers: JSON_HEADERS,
        data: JSON.stringify({ project_id: Number(project), title: 'Корзина', access: 'own', body: { dimension_filters: [{ key: 'url', op: 'like', value: '*/cart*' }] } }),
      });
      expect(goal.status()).toBe(200);
      const goalId = ((await goal.json()) as { result: { id: number } }).result.id;

      await page.goto(`${base}/stat/projects/${project}/conversions`);
      await page.waitForSelector('[data-testid="conversions-empty"]');
      expect(await page.textContent('h1')).toBe('Конверсии');
      expect(await page.textContent('[data-testid="conversions-empty"]')).toBe('Нет данных для отображения');
      expect(await page.textContent('[data-testid="conversions-page"]')).toContain('Показать публичные конверсии');
      expect(await page.textContent('[data-testid="conversion-new"]')).toBe('Новая конверсия');

      // The form refuses an empty conversion with the spec's texts, then a short title.
      await page.click('[data-testid="conversion-new"]');
      await page.waitForSelector('[data-testid="conversion-form"]');
      await page.click('[data-testid="conversion-save"]');
      const formText = await page.textContent('[data-testid="conversion-form"]');
      expect(formText).toContain('Поле не заполнено');
      expect(formText).toContain('Выберите цель');
      await page.fill('[data-testid="conversion-title"]', 'ab');
      expect(await page.textContent('[data-testid="conversion-form"]')).toContain('Минимум 3 символа');
      await page.fill('[data-testid="conversion-title"]', 'Покупки');
      await page.waitForSelector(`[data-testid="conversion-numerator"] option[value="${goalId}"]`, { state: 'attached' });
      await page.selectOption('[data-testid="conversion-numerator"]', String(goalId));
      expect(await page.$eval('[data-testid="conversion-denominator"]', (s) => (s as HTMLSelectElement).selectedOptions[0]?.textContent)).toBe('Все визиты');
      expect(await page.$$eval('[data-testid="conversion-attribution"] option', (os) => os.map((o) => o.textContent))).toEqual(['Last click', 'First click', 'Last valuable click', 'Last click from the ad network']);
      expect(await page.$$eval('[data-testid="conversion-window"] option', (os) => os.map((o) => o.textContent))).toEqual(['7 дней', '14 дней', '21 день', '28 дней']);
      await shot(page, 'form', false);
      const posted = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/api/v1.0/conversion'));
      await page.click('[data-testid="conversion-save"]');
      expect((await posted).postDataJSON()).toEqual({
        project_id: Number(project),
        title: 'Покупки',
        description: '',
        metric: 'visits',
        numerator_goal_id: goalId,
        denominator_goal_id: null,
        access: 'own',
        attribution: 'last_click',
        attribution_window: 7,
        is_favorite: false,
      });
      await page.getByRole('status').filter({ hasText: 'Конверсия создана' }).waitFor();
      await page.waitForSelector('[data-testid="conversion-card"]');
      expect(await page.textContent('[data-testid="conversion-card-title"]')).toBe('Покупки');

      // 1 of 3 visits reached the cart: the events may still be on their way, so wait until the exact figures hold them.
      const figures = async (sample: number) => {
        const answer = await context.request.post(`${base}/top100/api/report/v1.0/eventbase/${project}/conversions`, {
          headers: JSON_HEADERS,
          data: JSON.stringify({ date_start: '7days', date_end: 'today', sample }),
        });
        const [one] = ((await answer.json()) as { result: { conversions: { numerator: { totals: number }; denominator: { totals: number } }[] } }).result.conversions;
        return [String(one?.numerator.totals), String(one?.denominator.totals)];
      };
      await expect.poll(() => figures(1), { timeout: 60_000 }).toEqual(['1', '3']);
      // The card reads a tenth of the visitors (spec 002 §9), so it shows what the api answers at 0.1 (on three visitors, likely none).
      const listed = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith(`/eventbase/${project}/conversions`));
      await page.reload();
      expect((await listed).postDataJSON()).toMatchObject({ sample: 0.1 });
      await page.waitForSelector('[data-testid="conversion-value"]:not(:text("…"))');
      expect([await page.textContent('[data-testid="conversion-numerator-total"]'), await page.textContent('[data-testid="conversion-denominator-total"]')]).toEqual(await figures(0.1));
      expect(await page.textContent('[data-testid="conversion-card"]')).toContain('Личная');
      expect(await page.isVisible('[data-testid="conversion-card"] [data-testid="conversion-card-graph"] canvas')).toBe(true);
      await shot(page, 'list');

      // The favourite star.
      const starred = page.waitForRequest((r) => r.method() === 'PUT' && r.url().includes('/api/v1.0/conversion/'));
      await page.click('[data-testid="conversion-star"]');
      expect((await starred).postDataJSON()).toEqual({ is_favorite: true });
      await expect.poll(() => page.getAttribute('[data-testid="conversion-star"]', 'aria-pressed')).toBe('true');

      // The single page: the same figures, the table by source (last click: the search visit reached the cart).
      await page.click('[data-testid="conversion-card-title"]');
      await page.waitForSelector('[data-testid="conversion-page"]');
      expect(await page.textContent('h1')).toBe('Конверсия: Покупки');
      await expect.poll(() => page.textContent('[data-testid="conversion-page-value"]'), { timeout: 15_000 }).toBe('33,33 %');
      expect(await page.textContent('[data-testid="conversion-page-numerator"]')).toBe('1');
      expect(await page.textContent('[data-testid="conversion-page-denominator"]')).toBe('3');
      await expect.poll(() => tableRows(page), { timeout: 15_000 }).toEqual(['Поисковые системы | 1 | 1 | 100,00 %', 'Прямые заходы | 0 | 2 | 0,000000 %']);
      expect(await page.textContent('[data-testid="conversion-table-total"]')).toBe('Итого1333,33 %');
      expect(await page.textContent('[data-testid="conversion-table-count"]')).toBe('итого: 2');
      expect(await page.isVisible('[data-testid="table-pager"]')).toBe(false);
      expect(await page.isVisible('[data-testid="conversion-graph"]')).toBe(true);

      // The widgets, in percent: the search visit 1 of 1, the direct ones 0 of 2; gender and the counter type are not collected (all 1 of 3).
      await expect.poll(() => legend(page, 'traffic_sources'), { timeout: 15_000 }).toEqual(['Поисковые системы: 100,00 %', 'Прямые заходы: 0,000000 %']);
      await expect.poll(() => legend(page, 'audience'), { timeout: 15_000 }).toEqual(['Не определено: 33,33 %']);
      await expect.poll(() => legend(page, 'technology'), { timeout: 15_000 }).toEqual(['Не определено: 33,33 %']);
      await page.click('[data-testid="conversion-widget-technology"] [data-tab="device_type"]');
      await expect.poll(() => legend(page, 'technology'), { timeout: 15_000 }).toEqual(['Компьютеры: 33,33 %']);
      expect(await page.$$eval('[data-testid="conversion-widget-audience"] [data-tab]', (tabs) => tabs.map((t) => t.textContent))).toEqual(['Пол', 'Возраст', 'Страны', 'Интересы']);
      // Pie and area are disabled; sources open as bars.
      const types = (widget: string) =>
        page.$$eval(`[data-testid="conversion-widget-${widget}"] [data-testid="chart-type"] button`, (bs) => bs.map((b) => `${b.getAttribute('data-type')}${(b as HTMLButtonElement).disabled ? ' off' : ''}${b.getAttribute('aria-pressed') === 'true' ? ' on' : ''}`));
      expect(await types('traffic_sources')).toEqual(['line', 'bar on', 'pie off', 'area off']);
      expect(await types('audience')).toEqual(['line on', 'bar', 'pie off', 'area off']);
      expect(await page.isVisible('[data-testid="conversion-widget-traffic_sources-graph"] canvas')).toBe(true);
      await shot(page, 'single');
      // Seen from the top, the table's header and totals rows sit right above its first row.
      const gap = await page.$eval('[data-testid="conversion-table"]', (table) => {
        const totals = table.querySelector('thead tr:last-child')!.getBoundingClientRect();
        const first = table.querySelector('tbody tr')!.getBoundingClientRect();
        return Math.round(first.top - totals.bottom);
      });
      expect(gap).toBe(0);

      // The first column sorts, each click the other way; the request says so.
      const sorted = (order: string) => page.waitForRequest((r) => r.url().endsWith('/conversion_table') && (r.postDataJSON() as { sort?: { order?: string } }).sort?.order === order);
      const firstAsc = sorted('asc');
      await page.click('[data-testid="conversion-table"] button[data-column="traffic_type"]');
      expect((await firstAsc).postDataJSON()).toMatchObject({ sort: { name: 'traffic_type', order: 'asc' }, dimensions: ['traffic_type'] });
      await expect.poll(() => tableRows(page), { timeout: 15_000 }).toEqual(['Прямые заходы | 0 | 2 | 0,000000 %', 'Поисковые системы | 1 | 1 | 100,00 %']);
      const firstDesc = sorted('desc');
      await page.click('[data-testid="conversion-table"] button[data-column="traffic_type"]');
      expect((await firstDesc).postDataJSON()).toMatchObject({ sort: { name: 'traffic_type', order: 'desc' } });
      await expect.poll(() => tableRows(page), { timeout: 15_000 }).toEqual(['Поисковые системы | 1 | 1 | 100,00 %', 'Прямые заходы | 0 | 2 | 0,000000 %']);

      // «Скачать в CSV»: the dialog names the user's e-mail; the file is the table in its order, totals first.
      await page.click('[data-testid="csv-button"]');
      await page.waitForSelector('[data-testid="csv-dialog"]');
      expect(await page.textContent('[data-testid="csv-button"]')).toContain('Скачать в CSV');
      expect(await page.textContent('[data-testid="csv-email"]')).toBe(`conversions-${stamp}@example.com`);
      await shot(page, 'csv', false);
      const [csv] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="csv-download"]')]);
      expect(csv.suggestedFilename()).toMatch(/^Конверсия Покупки .*\.csv$/);
      const csvText = readFileSync((await csv.path())!, 'utf8');
      expect(csvText).toBe('\uFEFFИсточники трафика;Целевые визиты;Визиты;Конверсия, %\r\nИтого;1;3;33,33\r\nПоисковые системы;1;1;100\r\nПрямые заходы;0;2;0\r\n');

      // «Настройка сводной таблицы»: a second dimension; «Отменить» changes nothing, «Сохранить» asks for both.
      await page.click('[data-testid="conversion-table-settings"]');
      await page.waitForSelector('[data-testid="conversion-table-dialog"]');
      expect(await page.textContent('[data-testid="conversion-table-dialog"]')).toContain('Настройка сводной таблицы');
      expect(await page.textContent('[data-testid="conversion-table-dialog"]')).toContain('Источники трафика детально');
      await page.click('[data-testid="conversion-dimension-utm_source"]');
      await page.getByRole('button', { name: 'Отменить' }).click();
      await page.waitForSelector('[data-testid="conversion-table-dialog"]', { state: 'detached' });
      await page.click('[data-testid="conversion-table-settings"]');
      await page.click('[data-testid="conversion-dimension-utm_source"]');
      const both = page.waitForRequest((r) => r.url().endsWith('/conversion_table') && (r.postDataJSON() as { dimensions?: string[] }).dimensions?.length === 2);
      await page.click('[data-testid="conversion-table-save"]');
      expect((await both).postDataJSON()).toMatchObject({ dimensions: ['traffic_type', 'utm_source'] });
      await expect.poll(() => tableRows(page), { timeout: 15_000 }).toEqual(['Поисковые системы / Не определено | 1 | 1 | 100,00 %', 'Прямые заходы / Не определено | 0 | 2 | 0,000000 %']);
      await shot(page, 'single-two-dimensions');

      // Another model: in the URL and the table's request.
      const asked = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith(`/eventbase/${project}/conversion_table`));
      await page.selectOption('[data-testid="conversion-page-attribution"]', 'first_click');
      expect((await asked).postDataJSON()).toMatchObject({ attribution: 'first_click' });
      expect(new URL(page.url()).searchParams.get('attribution')).toBe('first_click');
      await expect.poll(() => tableRows(page), { timeout: 15_000 }).toEqual(['Поисковые системы / Не определено | 1 | 1 | 100,00 %', 'Прямые заходы / Не определено | 0 | 2 | 0,000000 %']);
      // A reload (or the link sent to someone) shows the same table: model, dimensions and sort come from the URL.
      expect(new URL(page.url()).searchParams.get('tableDimensions')).toBe('traffic_type,utm_source');
      expect(new URL(page.url()).searchParams.get('orderBy')).toBe('traffic_type:desc');
      const reloaded = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith(`/eventbase/${project}/conversion_table`));
      await page.reload();
      expect((await reloaded).postDataJSON()).toMatchObject({ attribution: 'first_click', dimensions: ['traffic_type', 'utm_source'], sort: { name: 'traffic_type', order: 'desc' } });
      await page.waitForSelector('[data-testid="conversion-page-attribution"]');
      expect(await page.inputValue('[data-testid="conversion-page-attribution"]')).toBe('first_click');
      await expect.poll(() => tableRows(page), { timeout: 15_000 }).toEqual(['Поисковые системы / Не определено | 1 | 1 | 100,00 %', 'Прямые заходы / Не определено | 0 | 2 | 0,000000 %']);

      // «Точность:» at 10 %: every call of the page asks for it, the URL keeps it, the toolbar shows the sample the answer says.
      expect(await page.textContent('[data-testid="sample-value"]')).toBe('100%');
      const sampled = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith(`/eventbase/${project}/conversions`));
      const sampledTable = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith(`/eventbase/${project}/conversion_table`));
      const sampledWidget = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/eventbase_conversion_technology'));
      await page.click('[data-testid="sample-value"]');
      await page.click('[role="dialog"][aria-label="Точность"] button:text-is("10%")');
      await page.keyboard.press('Escape');
      expect((await sampled).postDataJSON()).toMatchObject({ sample: 0.1 });
      expect((await sampledTable).postDataJSON()).toMatchObject({ sample: 0.1, attribution: 'first_click' });
      expect((await sampledWidget).postDataJSON()).toMatchObject({ sample: 0.1 });
      expect(new URL(page.url()).searchParams.get('sample')).toBe('0.1');
      await expect.poll(() => page.getAttribute('[data-testid="sample-value"]', 'data-sample')).toBe('0.1');
      expect(await page.textContent('[data-testid="sample-value"]')).toBe('10%');
      // The toolbar at 1440 and at 1024 wide: the period, then the model, the window and the accuracy
      // together on one row (below the period when they do not fit beside it), nothing cut off.
      for (const width of [1440, 1024]) {
        await page.setViewportSize({ width, height: 900 });
        await page.waitForTimeout(200);
        await page.waitForSelector('[data-testid="conversion-page-toolbar"] [role="status"]', { state: 'detached' });
        await shot(page, `single-sample-${width}`, false);
        const layout = await page.$eval('[data-testid="conversion-page-toolbar"]', (toolbar) => {
          const settings = Array.from(toolbar.children[1]?.children ?? []).map((item) => item.getBoundingClientRect()).map((r) => r.top + r.height / 2);
          return { settings: settings.length, spread: Math.max(...settings) - Math.min(...settings), overflow: toolbar.scrollWidth - toolbar.clientWidth };
        });
        expect([width, layout.settings, layout.spread < 4, layout.overflow]).toEqual([width, 3, true, 0]);
      }
      await page.setViewportSize({ width: 1280, height: 900 });

      // «Сделать публичной», then delete after a confirmation: the list is empty again.
      await page.goto(`${base}/stat/projects/${project}/conversions`);
      await page.waitForSelector('[data-testid="conversion-card"]');
      await page.click('[data-testid="conversion-actions"]');
      await page.click('[data-testid="conversion-make-public"]');
      await page.getByRole('status').filter({ hasText: 'Конверсия стала публичной' }).waitFor();
      await expect.poll(() => page.textContent('[data-testid="conversion-card"]')).toContain('Публичная');
      await page.click('[data-testid="conversion-actions"]');
      expect(await page.$$eval('[data-testid="conversion-make-public"]', (items) => items.length)).toBe(0);
      await page.click('[data-testid="conversion-remove"]');
      await page.waitForSelector('[data-testid="confirm-dialog"]');
      expect(await page.textContent('[data-testid="confirm-dialog"]')).toContain('«Покупки»');
      await page.click('[data-testid="confirm-button"]');
      await page.getByRole('status').filter({ hasText: 'Конверсия удалена' }).waitFor();
      await page.waitForSelector('[data-testid="conversions-empty"]');

      // On the demo project this user may look, not create.
      await page.goto(`${base}/stat/projects/7596044/conversions`);
      await page.waitForSelector('[data-testid="conversions-page"]');
      expect(await page.isDisabled('[data-testid="conversion-new"]')).toBe(true);
      // Its public conversions are there to read, the newest first.
      await page.waitForSelector('[data-testid="conversion-card"]');
      expect(await page.$$eval('[data-testid="conversion-card"]', (cards) => cards.map((c) => c.textContent ?? ''))).toEqual([
        expect.stringContaining('Подписки к поискам'),
        expect.stringContaining('Подписка на рассылку'),
      ]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 240_000);
});

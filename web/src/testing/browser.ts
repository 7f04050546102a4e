/**
 * The steps the browser tests (`*.browser.test.ts`) share before they come to what they test: a
 * context as a visitor from Russia opens the app, a page whose errors are kept, a new user, a site.
 */
import { expect } from 'vitest';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';

/** The password of every user the browser tests register. */
const TEST_PASSWORD = 'browser test password';

/** A context as a visitor in Moscow with a Russian browser has it, `width` by 900 px. */
export function russianContext(browser: Browser, width: number, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  return browser.newContext({ viewport: { width, height: 900 }, locale: 'ru-RU', timezoneId: 'Europe/Moscow', ...options });
}

/** A new page of `context`, and the errors it throws (uncaught), for the test to expect none. */
export async function pageWithErrors(context: BrowserContext): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  return { page, errors };
}

/** A page of its own (a context of its own, no locale), `width` by 900 px, and the errors it throws. */
export async function openPage(browser: Browser, width: number): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  return { page, errors };
}

/** Registers `email` (with {@link TEST_PASSWORD}) on the registration page; resolves on «Мои сайты». */
export async function registerUser(page: Page, base: string, email: string): Promise<void> {
  await page.goto(`${base}/stat/projects?register`);
  await page.fill('input[name=email]', email);
  await page.fill('input[name=password]', TEST_PASSWORD);
  await page.click('[data-testid=register-form] button[type=submit]');
  await page.waitForSelector('[data-testid=projects]');
}

/** Adds a site as the context's user, as the create form does; the answer's status and the site's id. */
export async function createSite(context: BrowserContext, base: string, url: string, title: string): Promise<{ status: number; id: number }> {
  const created = await context.request.post(`${base}/top100/api/v1.0/project`, {
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    data: JSON.stringify({ url, title, agree: true }),
  });
  const answer = (await created.json()) as { result?: { project_id: number } };
  return { status: created.status(), id: answer.result?.project_id ?? Number.NaN };
}

/** What a call of the api answers inside its envelope. */
interface Envelope<T> {
  responseStatus: number;
  result: T;
}

/** POSTs `body` to the api at `path` (below /top100) as an anonymous caller, expects a 200 and gives the result. */
export async function postApi<T>(base: string, path: string, body: unknown): Promise<T> {
  const response = await fetch(`${base}/top100${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(response.status).toBe(200);
  return ((await response.json()) as Envelope<T>).result;
}

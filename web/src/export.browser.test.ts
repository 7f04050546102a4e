/// <reference path="../../server/src/testing/provided.d.ts" />
/**
 * «Выгрузка данных» (spec 002 §2, §5, §6) in a real browser against the running service: a user is
 * refused (403), an administrator gets a data address for the demo project (digits-only limit,
 * the chosen fields, shown, hidden and copied) and the address streams the file.
 *
 * Needs: the embedded service of the global setup, with its administrator, and Debian's chromium.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { chromiumForTests } from '../../server/src/testing/browser';
import { russianContext } from './testing/browser';

const base = inject('apiUrl').replace(/\/+$/, '');
const admin = inject('admin');
const DEMO = 7596044;
const SCREENS = fileURLToPath(new URL('../../test-output/screens/', import.meta.url));

async function signIn(context: BrowserContext, email: string, password: string, register: boolean): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${base}/stat/projects?${register ? 'register' : 'login'}`);
  await page.fill('input[name=email]', email);
  await page.fill('input[name=password]', password);
  await page.click(`[data-testid=${register ? 'register-form' : 'login-form'}] button[type=submit]`);
  await page.waitForSelector('[data-testid=projects]');
  return page;
}

describe('the data export page in a browser', () => {
  const browser = chromiumForTests();
  beforeAll(() => {
    mkdirSync(SCREENS, { recursive: true });
  });

  it('is refused to a user who is not staff', async () => {
    const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await signIn(context, `export-user-${Date.now().toString(36)}@example.com`, 'browser test password', true);
      await page.goto(`${base}/stat/projects/${DEMO}/export`);
      await page.waitForSelector('[data-testid=error-page]');
      expect(await page.getAttribute('[data-testid=error-page]', 'data-status')).toBe('403');
    } finally {
      await context.close();
    }
  }, 90_000);

  it('gives an administrator a data address that is shown, hidden, copied, and streams the events', async () => {
    const context = await russianContext(browser(), 1280);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    try {
      const page = await signIn(context, admin.email, admin.password, false);
      await page.goto(`${base}/stat/projects/${DEMO}/export`);
      await page.waitForSelector('[data-testid=export-page]');
      // The period: yesterday, a whole day of the demo's traffic.
      const yesterday = new Date(Date.now() + 3 * 3_600_000 - 86_400_000).toISOString().slice(0, 10);
      await page.fill('[data-testid=export-start]', yesterday);
      await page.fill('[data-testid=export-end]', yesterday);
      // Digits only; a field left empty becomes 1.
      await page.fill('[data-testid=export-limit]', '');
      await page.locator('[data-testid=export-limit]').blur();
      expect(await page.inputValue('[data-testid=export-limit]')).toBe('1');
      await page.fill('[data-testid=export-limit]', '');
      await page.locator('[data-testid=export-limit]').pressSequentially('5a,0');
      expect(await page.inputValue('[data-testid=export-limit]')).toBe('50');
      await page.fill('[data-testid=export-limit]', '5');
      // Fields this service does not collect cannot be chosen.
      expect(await page.isDisabled('[data-testid=export-field-version]')).toBe(true);
      await page.click('[data-testid=export-field-session_id]');
      await page.click('[data-testid=export-field-event_number_in_session]');
      await page.click('[data-testid=export-make]');
      await page.waitForSelector('[data-testid=export-link]');
      const url = (await page.textContent('[data-testid=export-url]')) ?? '';
      expect(url).toMatch(/\/top100\/api\/v1\.0\/export\/[\w-]{32}\.csv$/);
      await page.screenshot({ path: `${SCREENS}export-1280.png`, fullPage: true });

      await page.click('[data-testid=export-show]');
      expect(await page.textContent('[data-testid=export-url]')).not.toContain('/export/');
      await page.click('[data-testid=export-show]');
      await page.click('[data-testid=export-copy]');
      await page.getByRole('status').filter({ hasText: 'Скопировано' }).first().waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

      // The address alone: five events of yesterday, oldest first, with the chosen fields.
      const file = await fetch(url);
      expect(file.status).toBe(200);
      const lines = (await file.text()).replace(/^\uFEFF/, '').trim().split('\r\n');
      expect(lines[0]).toBe('date_time;event_type;url;session_id;event_number_in_session');
      expect(lines).toHaveLength(6);
      const times = lines.slice(1).map((l) => l.split(';')[0] ?? '');
      expect(times.every((t) => t.startsWith(yesterday))).toBe(true);
      expect([...times].sort()).toEqual(times);
    } finally {
      await context.close();
    }
  }, 120_000);
});

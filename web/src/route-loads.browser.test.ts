/// <reference path="../../server/src/testing/provided.d.ts" />
/**
 * A page loaded at an address the router redirects from (app/routes.tsx) logs nothing: no warning
 * of React Router's about a leaf route with no element or a missing HydrateFallback, no error.
 *
 * Needs: the embedded service of the global setup (its base URL comes by inject) and Debian's
 * chromium; a missing one fails the test.
 */
import { describe, expect, inject, it } from 'vitest';
import { chromiumForTests } from '../../server/src/testing/browser';
import { russianContext } from './testing/browser';

const base = inject('apiUrl').replace(/\/+$/, '');

describe('a page load at a redirecting address', () => {
  const browser = chromiumForTests();

  it.each([
    ['/', '/stat/projects', '[data-testid=login-form]'],
    ['/stat/projects/7596044', '/stat/projects/7596044/dashboard', '[data-testid=widget-traffic_sources]'],
  ])('%s goes on to %s and logs no warning or error', async (path, target, shown) => {
    const context = await russianContext(browser(), 1440);
    const page = await context.newPage();
    const logged: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning' || message.type() === 'error') logged.push(`${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => logged.push(`pageerror: ${error.message}`));
    try {
      await page.goto(`${base}${path}`);
      await page.waitForSelector(shown);
      expect(new URL(page.url()).pathname).toBe(target);
      expect(logged).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);
});

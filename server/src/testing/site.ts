import { createServer, type Server } from 'node:http';
import type { Browser } from 'playwright-core';
import { VISITOR_USER_AGENT } from './browser.js';

/** A page expression: true once the counter's script element is in the page. */
export const COUNTER_LOADED = "Array.from(document.scripts).some((s) => s.src.includes('/counter/'))";

export interface TestSite {
  url: string;
  close(): Promise<void>;
}

/**
 * A small third-party site with the counter installed: /page1 links to /page2, and /page2
 * has a button that navigates SPA-style with history.pushState.
 */
export async function startTestSite(snippet: { src: string; projectId: number; collector: string }): Promise<TestSite> {
  const tag = `<script async src="${snippet.src}" data-project="${snippet.projectId}" data-collector="${snippet.collector}"></script>`;
  const page = (title: string, body: string): string =>
    `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>${tag}</head><body>${body}</body></html>`;
  const pages: Record<string, string> = {
    '/page1': page('Первая страница', '<a id="next" href="/page2">дальше</a>'),
    '/page2': page(
      'Вторая страница',
      `<button id="spa" onclick="history.pushState({}, '', '/page2/spa'); document.title = 'SPA';">spa</button>`,
    ),
  };
  const server: Server = createServer((req, res) => {
    if (req.url === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    const html = pages[req.url ?? ''];
    res.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Opens page1, follows the link to page2, then navigates SPA-style: three page views. */
export async function browseThreePages(browser: Browser, site: TestSite): Promise<string[]> {
  const page = await browser.newPage({ userAgent: VISITOR_USER_AGENT });
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  await page.goto(`${site.url}/page1`);
  await page.waitForFunction(COUNTER_LOADED);
  await page.waitForTimeout(300);
  await Promise.all([page.waitForURL('**/page2'), page.click('#next')]);
  await page.waitForTimeout(300);
  await page.click('#spa');
  await page.waitForURL('**/page2/spa');
  await page.waitForTimeout(300);
  await page.close();
  return problems;
}

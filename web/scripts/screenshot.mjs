// Screenshots of web pages in headless Chromium, for looking at the UI while developing.
// Usage: node web/scripts/screenshot.mjs BASE_URL OUT_DIR path[#name] ...
// Each path is shot at 1280 and 1920 px wide into OUT_DIR/name-WIDTH.png (full page).
import { mkdirSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { chromium } from 'playwright-core';

const [base, outDir, ...targets] = process.argv.slice(2);
if (!base || !outDir || targets.length === 0) {
  console.error('usage: screenshot.mjs BASE_URL OUT_DIR path[#name] ...');
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });
const executablePath = execSync('command -v chromium', { shell: '/bin/bash' }).toString().trim();
const browser = await chromium.launch({
  executablePath,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
try {
  for (const target of targets) {
    const [path, name = path.replace(/[^a-z0-9]+/gi, '_')] = target.split('#');
    for (const width of [1280, 1920]) {
      const page = await browser.newPage({ viewport: { width, height: 900 }, locale: 'ru-RU' });
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      await page.goto(base + path, { waitUntil: 'networkidle' });
      await page.waitForTimeout(300);
      await page.screenshot({ path: `${outDir}/${name}-${width}.png`, fullPage: true });
      console.log(`${name}-${width}.png ${page.url()}${errors.length ? ' ERRORS: ' + errors.join(' | ') : ''}`);
      await page.close();
    }
  }
} finally {
  await browser.close();
}

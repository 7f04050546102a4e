import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Flags for Debian's chromium as root on a machine with no network beyond loopback. */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Debian's chromium; a missing browser is an error, never a skipped test. */
function chromiumPath(): string {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) return fromEnv;
  try {
    return execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('chromium is not installed: apt-get install chromium (the .ci/run script does this)');
  }
}

/**
 * The user agent of the pages tests open: a desktop Chrome, as a visitor has. Headless
 * Chromium's own user agent says "HeadlessChrome", and the aggregator rightly drops it as a bot.
 */
export const VISITOR_USER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: FLAGS, headless: true });
}

/**
 * One Chromium for the tests of a `describe` (or file): launched before them, closed after them.
 * Call it in the block's body; the returned function gives the browser inside a test.
 */
export function chromiumForTests(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('Chromium is not launched: chromiumForTests() belongs in a describe block, outside its tests');
    return browser;
  };
}

/** The little of a canvas the pixel count reads (the server compiles without the DOM's types). */
interface Canvas {
  width: number;
  height: number;
  getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> } } | null;
}

/**
 * Non-transparent pixels of the canvases inside `[data-testid=testId]`, once some are painted:
 * uPlot draws on creation and on setData, so the count is retried for up to 50 frames of 100 ms
 * (0 if nothing is painted by then).
 */
export async function paintedPixels(page: Page, testId: string): Promise<number> {
  let painted = 0;
  for (let i = 0; i < 50 && painted === 0; i++) {
    painted = await page.evaluate((id) => {
      const { document } = globalThis as unknown as { document: { querySelectorAll(selector: string): Iterable<Canvas> } };
      let n = 0;
      for (const canvas of document.querySelectorAll(`[data-testid="${id}"] canvas`)) {
        const ctx = canvas.getContext('2d');
        if (!ctx || canvas.width === 0 || canvas.height === 0) continue;
        const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
        for (let j = 3; j < data.length; j += 4) if (data[j] !== 0) n += 1;
      }
      return n;
    }, testId);
    if (painted === 0) await page.waitForTimeout(100);
  }
  return painted;
}

import { execFileSync } from 'node:child_process';
import { chromium, type Browser } from 'playwright-core';

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
export function chromiumPath(): string {
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

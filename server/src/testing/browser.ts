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

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: FLAGS, headless: true });
}

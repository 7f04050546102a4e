/**
 * The built app (web/dist, from `npm run build`) loads the counter settings page on demand, as its
 * lazy route means: the page's code is a chunk of its own, in none of the files index.html loads
 * at once (a static import of the page from a report's code would pull it back into them).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RATED_TITLE_HINT } from './pages/settings/CounterSettings';

const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
const chunk = (name: string) => readFileSync(`${DIST}assets/${name}`, 'utf8');

describe('the counter settings route', () => {
  it('is its own chunk, outside the entry and the chunks preloaded with it', () => {
    const html = readFileSync(`${DIST}index.html`, 'utf8');
    const eager = [...html.matchAll(/(?:src|href)="[^"]*\/assets\/([^"/]+\.js)"/g)].map((m) => m[1]!);
    expect(eager.length).toBeGreaterThan(0);
    expect(eager.filter((name) => chunk(name).includes(RATED_TITLE_HINT))).toEqual([]);
    const holders = readdirSync(`${DIST}assets`).filter((name) => name.endsWith('.js') && chunk(name).includes(RATED_TITLE_HINT));
    expect(holders).toEqual([expect.stringMatching(/^CounterSettings-[\w-]+\.js$/)]);
  });
});

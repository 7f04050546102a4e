// CPU per hit of the collector's acceptance (UTF-8 decoding, JSON parse, schema validation):
// this checkout against a reference checkout (REFERENCE_ROOT, e.g. a git worktree of the code
// before a change), interleaved in one process so both see the same machine state.
//
//   REFERENCE_ROOT=../ref node benchmarks/collector/validation.mjs
//
// Environment (defaults): REFERENCE_ROOT (required), ROUNDS=7, HITS=200000 per round and side.
// Both checkouts must be built (npm run build / npx tsc -b).
import { performance } from 'node:perf_hooks';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '../..');
const reference = process.env.REFERENCE_ROOT;
if (!reference) throw new Error('REFERENCE_ROOT: the checkout to compare with');
const ROUNDS = Number(process.env.ROUNDS || 7);
const HITS = Number(process.env.HITS || 200_000);

async function acceptOf(checkout) {
  const module = await import(pathToFileURL(resolve(checkout, 'collector/dist/accept.js')).href);
  return module.acceptBody;
}

// Page views as hits.js sends them: Cyrillic titles, referrers, screens; 1024 distinct bodies.
const bodies = Array.from({ length: 1024 }, (_, i) =>
  Buffer.from(
    JSON.stringify({
      p: 7596044,
      t: 'pageview',
      u: `https://shop.example.ru/catalog/item-${i % 500}?utm_source=yandex`,
      r: i % 3 === 0 ? 'https://yandex.ru/search/?text=аналитика' : '',
      ti: `Товар номер ${i} — купить в интернет-магазине`,
      sw: 1920,
      sh: 1080,
      v: `visitor-${(i * 7919) % 20000}-abcdef`,
    }),
  ),
);
const facts = { ip: '127.0.0.1', userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0.0.0', now: Date.now() };
const decoder = new TextDecoder('utf-8', { fatal: true });

/** µs per hit: bytes to an accepted hit, as the collector's POST handler does. */
function measure(acceptBody, strictDecode) {
  const started = performance.now();
  for (let i = 0; i < HITS; i++) {
    const bytes = bodies[i & 1023];
    const text = strictDecode ? decoder.decode(bytes) : bytes.toString('utf8');
    const result = acceptBody(text, facts);
    if (!result.ok) throw new Error(result.reason);
  }
  return ((performance.now() - started) * 1000) / HITS;
}

const current = await acceptOf(root);
const before = await acceptOf(reference);
measure(current, true);
measure(before, false);
const rows = [];
for (let round = 1; round <= ROUNDS; round++) {
  rows.push({ round, reference: measure(before, false), current: measure(current, true) });
}
const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
for (const row of rows) console.log(`round ${row.round}: reference ${row.reference.toFixed(2)} µs/hit, this checkout ${row.current.toFixed(2)} µs/hit`);
const ref = median(rows.map((r) => r.reference));
const cur = median(rows.map((r) => r.current));
console.log(`median: reference ${ref.toFixed(2)} µs/hit, this checkout ${cur.toFixed(2)} µs/hit, difference ${(cur - ref).toFixed(2)} µs/hit`);

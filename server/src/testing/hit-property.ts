import fc from 'fast-check';
import type { ClickHouseClient } from '@stat/storage';
import { VISITOR_USER_AGENT } from './browser.js';

/**
 * The property of the whole hit path (issue 9): thousands of random hits, valid and hostile,
 * interleaved, sent to a running collector. Every hit is either refused with a 4xx, or stored
 * exactly once, or set aside in dead_hits; every well-formed hit is acknowledged; and after the
 * run a fresh hit is still stored. Each hit carries a unique visitor id (its marker), by which
 * it is found in `events` and in the raw bodies of `dead_hits`.
 */

/** One request to the collector: its body, made with the hit's marker as its visitor id. */
export interface HitCase {
  kind: 'valid' | 'hostile' | 'garbage';
  /** what was done to it, for failure messages */
  label: string;
  body: (marker: string) => string | Uint8Array<ArrayBuffer>;
}

const MAX_PROJECT = 2_147_483_647;

/** Characters that stores treat differently: Cyrillic, emoji (surrogate pairs), controls, quotes, backslashes. */
const storableChar = fc.oneof(
  fc.constantFrom('a', 'Я', 'ё', ' ', '"', '\\', '/', '%', '\u0001', '\u007f', '\u2028', '😀', '𝄞', '\uFEFF', '\uFFFD'),
  // One code point of any plane (never half a surrogate pair), but NUL: that one is unstorable.
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }).filter((c) => c !== '\u0000'),
);
/** Storable text of at most `max` UTF-16 units (the schema's measure), cut between code points. */
const storableText = (max: number) => fc.string({ unit: storableChar, maxLength: max }).map((s) => fitTo(s, max));

function fitTo(text: string, max: number): string {
  let out = '';
  for (const codePoint of text) {
    if (out.length + codePoint.length > max) break;
    out += codePoint;
  }
  return out;
}
/** Text that no store can keep: a NUL or a lone surrogate somewhere in it. */
const unstorableText = fc
  .tuple(storableText(20), fc.constantFrom('\u0000', '\uD800', '\uDBFF', '\uDC00', '\uDFFF'), storableText(20))
  .map(([a, bad, b]) => a + bad + b);

type HitFields = Record<string, unknown>;

/** A well-formed hit of any type, with edge values a real page can send. */
function validHit(projects: readonly number[]): fc.Arbitrary<HitFields> {
  const common = fc.record({
    p: fc.constantFrom(...projects),
    u: fc.oneof(
      fc.constant('https://e2e-site.example/'),
      storableText(60).map((path) => `https://e2e-site.example/${encodeURIComponent(path)}`),
      fc.constant(`https://e2e-site.example/${'a'.repeat(2048 - 25)}`),
      fc.constant('http://www.e2e-site.example/page?utm_source=yandex#anchor'),
    ),
    r: fc.oneof(fc.constant(''), fc.constant('https://yandex.ru/search/?text=тест'), storableText(40)),
    ti: fc.oneof(storableText(80), fc.constant('T'.repeat(1024))),
    sw: fc.oneof(fc.integer({ min: 0, max: 65_535 }), fc.constantFrom(0, 65_535)),
    sh: fc.integer({ min: 0, max: 65_535 }),
  });
  const typed = fc.oneof(
    { weight: 5, arbitrary: fc.constant({ t: 'pageview' }) },
    {
      weight: 1,
      arbitrary: fc.record({
        t: fc.constant('event'),
        en: fc.string({ unit: fc.constantFrom('a', 'Я', '😀', '-', '_', ' ', '.'), minLength: 1, maxLength: 64 }),
        // Small enough that every valid event fits the collector's 8 KB body cap.
        ep: fc.dictionary(
          fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 32 }).filter((k) => !/[\u0000-\u001f\u007f]/.test(k) && k !== '__proto__'),
          fc.oneof(storableText(40), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
          { maxKeys: 5 },
        ),
      }),
    },
    { weight: 1, arbitrary: fc.record({ t: fc.constantFrom('click', 'show'), bl: fc.constantFrom('menu', 'Подвал', 'b'.repeat(128)) }) },
    { weight: 1, arbitrary: fc.record({ t: fc.constant('engagement'), d: fc.integer({ min: 1, max: 86_400_000 }) }) },
    { weight: 1, arbitrary: fc.record({ t: fc.constant('read'), sp: fc.integer({ min: 0, max: 100 }), rp: fc.integer({ min: 0, max: 100 }) }) },
  );
  return fc.tuple(common, typed).map(([c, t]) => ({ ...c, ...t }));
}

/** A well-formed hit with one field made hostile: the collector must refuse it. */
function hostileHit(projects: readonly number[]): fc.Arbitrary<{ label: string; hit: HitFields }> {
  const badProject = fc.constantFrom<unknown>(0, -1, MAX_PROJECT + 1, 4_294_967_295, 4_294_967_296, 2 ** 53, 1.5, '0x10', '7e0', true, null, [projects[0]], {}, '');
  const badScreen = fc.constantFrom<unknown>(65_536, 100_000, -1, 1.5, 1e300, '12px', true, [1]);
  const mutations: fc.Arbitrary<{ label: string; change: HitFields | ((hit: HitFields) => HitFields) }>[] = [
    badProject.map((p) => ({ label: `p=${JSON.stringify(p)}`, change: { p } })),
    unstorableText.map((ti) => ({ label: 'ti unstorable', change: { ti } })),
    unstorableText.map((path) => ({ label: 'u unstorable', change: { u: `https://e2e-site.example/${path}` } })),
    unstorableText.map((r) => ({ label: 'r unstorable', change: { r } })),
    badScreen.map((sw) => ({ label: `sw=${JSON.stringify(sw)}`, change: { sw } })),
    fc.constantFrom('javascript:alert(1)', 'e2e-site.example/a', '', `https://e2e-site.example/${'a'.repeat(2048)}`).map((u) => ({ label: `u=${u.slice(0, 30)}`, change: { u } })),
    fc.constantFrom<unknown>('visit', 1, null, '').map((t) => ({ label: `t=${JSON.stringify(t)}`, change: { t } })),
    fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 8 }).filter((k) => !['p', 't', 'u', 'r', 'ti', 'sw', 'sh', 'v'].includes(k)).map((k) => ({ label: `extra ${k}`, change: { [k]: 1 } })),
    fc.constant({ label: 'no u', change: (hit: HitFields) => Object.fromEntries(Object.entries(hit).filter(([k]) => k !== 'u')) }),
    fc.constant({ label: 'deep ep', change: { t: 'event', en: 'e', ep: JSON.parse('{"a":'.repeat(50) + '1' + '}'.repeat(50)) as unknown } }),
    unstorableText.map((value) => ({ label: 'ep value unstorable', change: { t: 'event', en: 'e', ep: { k: value } } })),
    fc.constant({ label: 'engagement d=0', change: { t: 'engagement', d: 0 } }),
    fc.constant({ label: 'read rp=101', change: { t: 'read', sp: 1, rp: 101 } }),
  ];
  return fc.tuple(validHit(projects).filter((hit) => hit.t === 'pageview'), fc.oneof(...mutations)).map(([hit, { label, change }]) => ({
    label,
    hit: typeof change === 'function' ? change(hit) : { ...hit, ...change },
  }));
}

/** Bodies that are not a hit at all: bytes that are not UTF-8, broken or foreign JSON. */
const garbage: fc.Arbitrary<{ label: string; body: (marker: string) => string | Uint8Array<ArrayBuffer> }> = fc.oneof(
  fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => ({ label: 'random bytes', body: () => bytes })),
  fc.constantFrom('', '{', 'null', '[]', '"hit"', '{"p":', '1e400', '{"p":1e400,"u":"https://a.ru/","v":"abcdefgh"}').map((text) => ({ label: `text ${text}`, body: () => text })),
  fc.constant({ label: 'invalid UTF-8 in a title', body: (v: string) => Buffer.concat([Buffer.from(`{"p":1,"u":"https://a.ru/","v":"${v}","ti":"`), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]) }),
);

/** The hit cases of one run: mostly valid hits, interleaved with hostile hits and garbage. */
export function hitCases(projects: readonly number[]): fc.Arbitrary<HitCase[]> {
  const one: fc.Arbitrary<HitCase> = fc.oneof(
    { weight: 6, arbitrary: validHit(projects).map((hit): HitCase => ({ kind: 'valid', label: `valid ${String(hit.t)}`, body: (v) => JSON.stringify({ ...hit, v }) })) },
    { weight: 3, arbitrary: hostileHit(projects).map(({ label, hit }): HitCase => ({ kind: 'hostile', label, body: (v) => JSON.stringify({ ...hit, v }) })) },
    { weight: 1, arbitrary: garbage.map(({ label, body }): HitCase => ({ kind: 'garbage', label, body })) },
  );
  return fc.array(one, { minLength: 150, maxLength: 300 });
}

/** What the collector answered to each case. */
export interface Sent {
  hitCase: HitCase;
  marker: string;
  status: number;
  /** the answer's text (the reason of a 400) */
  answer: string;
}

/** Sends the cases to the collector, a few at a time, as browsers would. */
export async function sendCases(collectorUrl: string, cases: readonly HitCase[], markerOf: (i: number) => string): Promise<Sent[]> {
  const sent: Sent[] = [];
  const CONCURRENCY = 16;
  for (let i = 0; i < cases.length; i += CONCURRENCY) {
    const chunk = cases.slice(i, i + CONCURRENCY);
    const statuses = await Promise.all(
      chunk.map(async (hitCase, j) => {
        const marker = markerOf(i + j);
        const response = await fetch(`${collectorUrl}/hit`, {
          method: 'POST',
          headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': VISITOR_USER_AGENT },
          body: hitCase.body(marker),
        });
        return { hitCase, marker, status: response.status, answer: await response.text() };
      }),
    );
    sent.push(...statuses);
  }
  return sent;
}

/** How many events and dead letters each marker has in storage. */
export async function countStored(clickhouse: ClickHouseClient, markers: readonly string[]): Promise<Map<string, { events: number; dead: number }>> {
  const counts = new Map(markers.map((m) => [m, { events: 0, dead: 0 }]));
  const events = await clickhouse.query({
    query: 'SELECT visitor_id, count() AS n FROM events WHERE visitor_id IN {markers:Array(String)} GROUP BY visitor_id',
    query_params: { markers },
    format: 'JSONEachRow',
  });
  for (const row of await events.json<{ visitor_id: string; n: string | number }>()) counts.get(row.visitor_id)!.events = Number(row.n);
  // dead_hits keeps the raw body; the marker is a visitor id, unique to its hit. The table is
  // small in a test: read it whole.
  const dead = await clickhouse.query({ query: 'SELECT raw FROM dead_hits', format: 'JSONEachRow' });
  for (const row of await dead.json<{ raw: string }>()) {
    for (const marker of markers) if (row.raw.includes(`"${marker}"`)) counts.get(marker)!.dead += 1;
  }
  return counts;
}

/**
 * Checks one run's answers against storage, waiting (up to `timeoutMs`) for the acknowledged
 * hits to arrive; returns the problems found (empty when the property holds).
 */
export async function checkRun(clickhouse: ClickHouseClient, sent: readonly Sent[], timeoutMs = 30_000): Promise<string[]> {
  const problems: string[] = [];
  for (const s of sent) {
    const refused = s.status >= 400 && s.status < 500;
    if (s.status !== 204 && !refused) problems.push(`${s.hitCase.label}: answered ${s.status}`);
    if (s.hitCase.kind === 'valid' && s.status !== 204) {
      problems.push(`${s.hitCase.label}: a well-formed hit answered ${s.status} ${s.answer}: ${String(s.hitCase.body(s.marker)).slice(0, 300)}`);
    }
  }
  const markers = sent.map((s) => s.marker);
  const acknowledged = new Set(sent.filter((s) => s.status === 204).map((s) => s.marker));
  const until = Date.now() + timeoutMs;
  let counts = await countStored(clickhouse, markers);
  const arrived = (): boolean => [...acknowledged].every((m) => counts.get(m)!.events + counts.get(m)!.dead > 0);
  while (!arrived() && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    counts = await countStored(clickhouse, markers);
  }
  // A moment more: a hit stored twice would show now.
  await new Promise((resolve) => setTimeout(resolve, 300));
  counts = await countStored(clickhouse, markers);
  for (const s of sent) {
    const { events, dead } = counts.get(s.marker)!;
    if (acknowledged.has(s.marker) && events + dead !== 1) problems.push(`${s.hitCase.label} (${s.marker}): acknowledged, found ${events} times in events and ${dead} in dead_hits`);
    if (!acknowledged.has(s.marker) && events + dead !== 0) problems.push(`${s.hitCase.label} (${s.marker}): refused with ${s.status}, yet stored`);
  }
  return problems;
}

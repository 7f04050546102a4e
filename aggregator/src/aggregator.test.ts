import { describe, expect, it } from 'vitest';
import type { AcceptedHit } from '@stat/schemas';
import { createMetrics, readSamples } from '@stat/telemetry';
import { createAggregator } from './aggregator.js';
import { siteRulesFrom } from './site-rules.js';
import { chdbOfFile } from './testing/chdb.js';
import { GOOGLEBOT, pageViewMaker } from './testing/hits.js';

// Needs: chDB (in-process), one data directory for the file.
const chdb = chdbOfFile('aggregator');

const pageView = pageViewMaker();
const hit = (project: number, visitor: string, at: number, url?: string, referrer?: string, ua?: string): AcceptedHit => pageView({ project, visitor, at, url, referrer, ua });

const MINUTE = 60_000;

describe('aggregator on chDB', () => {
  it('a visit open before a restart goes on after it', async () => {
    const now = Date.now() - 10 * MINUTE;
    await createAggregator(chdb.client).handle([hit(11, 'visitor-a', now), hit(11, 'visitor-a', now + MINUTE)]);
    // A new aggregator knows nothing in memory, as after kill -9.
    await createAggregator(chdb.client).handle([hit(11, 'visitor-a', now + 5 * MINUTE)]);
    const sessions = await chdb.rows<{ n: string }>('SELECT uniqExact(session_id) AS n FROM events WHERE project_id = {p:UInt32}', { p: 11 });
    expect(Number(sessions[0]!.n)).toBe(1);
  });

  it('skips hits of a replayed Kafka batch that are already stored', async () => {
    const at = Date.now() - 5 * MINUTE;
    const first = [hit(12, 'visitor-b', at), hit(12, 'visitor-b', at + 1000)];
    const position = { topic: 't-replay', partition: 0, offsets: [0, 1] };
    await createAggregator(chdb.client).handle(first, position);
    // After a crash before the commit, the batch comes again, now with one more hit.
    const again = [...first, hit(12, 'visitor-b', at + 2000)];
    await createAggregator(chdb.client).handle(again, { ...position, offsets: [0, 1, 2] });
    const count = await chdb.rows<{ n: string }>('SELECT count() AS n FROM events WHERE project_id = {p:UInt32}', { p: 12 });
    expect(Number(count[0]!.n)).toBe(3);
  });

  it('skips a replayed hit whose event is stored though its offset was never recorded (a crash between the events and their offsets view)', async () => {
    const at = Date.now() - 5 * MINUTE;
    const first = [hit(61, 'visitor-u', at), hit(61, 'visitor-u', at + 1000)];
    const position = { topic: 't-unrecorded', partition: 0, offsets: [0, 1] };
    await createAggregator(chdb.client).handle(first, position);
    // The process died after the events' part was written and before ingest_offsets' part.
    await chdb.client.command({ query: "ALTER TABLE ingest_offsets DELETE WHERE topic = 't-unrecorded' SETTINGS mutations_sync = 1" });
    expect(await chdb.rows('SELECT * FROM ingest_offsets WHERE topic = {t:String}', { t: 't-unrecorded' })).toEqual([]);
    const metrics = createMetrics();
    await createAggregator(chdb.client, { metrics }).handle([...first, hit(61, 'visitor-u', at + 2000)], { ...position, offsets: [0, 1, 2] });
    const count = await chdb.rows<{ n: string }>('SELECT count() AS n FROM events WHERE project_id = {p:UInt32}', { p: 61 });
    expect(Number(count[0]!.n)).toBe(3);
    const samples = readSamples(await metrics.registry.metrics());
    expect(samples.get('stat_events_dropped_total{reason="replay"}')).toBe(2);
  });

  it('takes batches of several partitions merged into one, and skips what each partition already stored', async () => {
    const at = Date.now() - 5 * MINUTE;
    const a = [hit(34, 'visitor-p0', at), hit(34, 'visitor-p0', at + 1000)];
    const b = [hit(34, 'visitor-p1', at + 500)];
    const aggregator = createAggregator(chdb.client);
    await aggregator.handle([...a, ...b], [
      { topic: 't-merged', partition: 0, offsets: [10, 11] },
      { topic: 't-merged', partition: 1, offsets: [20] },
    ]);
    // After a crash before the commits, both partitions come again, each with one more hit.
    const again = createAggregator(chdb.client);
    await again.handle([...b, hit(34, 'visitor-p1', at + 1500), ...a, hit(34, 'visitor-p0', at + 2000)], [
      { topic: 't-merged', partition: 1, offsets: [20, 21] },
      { topic: 't-merged', partition: 0, offsets: [10, 11, 12] },
    ]);
    expect(again.stats).toEqual({ stored: 2, droppedBots: 0, droppedByRules: 0, droppedNoProject: 0, skippedReplays: 3, deadLettered: 0 });
    const stored = await chdb.rows<{ visitor_id: string; n: string }>(
      'SELECT visitor_id, count() AS n FROM events WHERE project_id = {p:UInt32} GROUP BY visitor_id ORDER BY visitor_id',
      { p: 34 },
    );
    expect(stored.map((r) => [r.visitor_id, Number(r.n)])).toEqual([
      ['visitor-p0', 3],
      ['visitor-p1', 2],
    ]);
    // Offsets that do not cover the batch are a programming error, refused before anything is stored.
    await expect(createAggregator(chdb.client).handle([hit(34, 'x', at)], [])).rejects.toThrow('a batch of 1 hits came with 0 bus offsets');
  });

  it("stores an article page's material in its columns, the published time in UTC, and nothing on other pages", async () => {
    const at = Date.now() - 7 * MINUTE;
    const article = hit(19, 'reader-m1', at, 'https://news.ru/city');
    article.hit = { ...article.hit, mt: 'Как устроен город', ma: 'Анна Петрова', mp: '2026-11-20T09:30:00+03:00' };
    const odd = hit(19, 'reader-m1', at + MINUTE, 'https://news.ru/bridges');
    odd.hit = { ...odd.hit, mt: 'Мосты', mp: 'вчера' };
    await createAggregator(chdb.client).handle([article, odd, hit(19, 'reader-m1', at + 2 * MINUTE, 'https://news.ru/')]);
    const stored = await chdb.rows<Record<string, unknown>>(
      'SELECT url, media_title, author_name, toString(published_datetime) AS published FROM events WHERE project_id = {p:UInt32} ORDER BY ts',
      { p: 19 },
    );
    expect(stored).toEqual([
      { url: 'https://news.ru/city', media_title: 'Как устроен город', author_name: 'Анна Петрова', published: '2026-11-20 06:30:00' },
      { url: 'https://news.ru/bridges', media_title: 'Мосты', author_name: '', published: '1970-01-01 00:00:00' },
      { url: 'https://news.ru/', media_title: '', author_name: '', published: '1970-01-01 00:00:00' },
    ]);
  });

  it('drops bots, counts them, and stores the rest enriched', async () => {
    const at = Date.now() - 8 * MINUTE;
    const aggregator = createAggregator(chdb.client);
    await aggregator.handle([hit(14, 'visitor-d', at), hit(14, 'crawler-1', at, 'https://shop.ru/', '', GOOGLEBOT)]);
    expect(aggregator.stats).toEqual({ stored: 1, droppedBots: 1, droppedByRules: 0, droppedNoProject: 0, skippedReplays: 0, deadLettered: 0 });
    const stored = await chdb.rows<Record<string, unknown>>(
      'SELECT visitor_id, browser_family, device_type, os_family, geo_country > 0 AS located FROM events WHERE project_id = {p:UInt32}',
      { p: 14 },
    );
    expect(stored).toEqual([{ visitor_id: 'visitor-d', browser_family: 'Chrome', device_type: 'desktop', os_family: 'Windows', located: 1 }]);
    const dropped = await chdb.rows<{ reason: string; n: string }>(
      'SELECT reason, uniqExact(event_id) AS n FROM dropped_hits WHERE project_id = {p:UInt32} GROUP BY reason',
      { p: 14 },
    );
    expect(dropped.map((r) => [r.reason, Number(r.n)])).toEqual([['bot', 1]]);
  });

  it('counts in the process metrics what it stored, dropped and set aside, the batch and its write, and the newest hit stored', async () => {
    const at = Date.now() - 7 * MINUTE;
    const metrics = createMetrics();
    const aggregator = createAggregator(chdb.client, { metrics });
    expect(aggregator.newestStoredAt()).toBeNull();
    await aggregator.handle([hit(41, 'visitor-m', at), hit(41, 'visitor-m', at + 2000), hit(41, 'crawler-2', at, 'https://shop.ru/', '', GOOGLEBOT), '{"no":"hit"}']);
    // A second batch, of one later hit.
    await aggregator.handle([hit(41, 'visitor-n', at + 5000)]);
    const samples = readSamples(await metrics.registry.metrics());
    expect(samples.get('stat_events_stored_total')).toBe(3);
    expect(samples.get('stat_events_dropped_total{reason="bot"}')).toBe(1);
    expect(samples.get('stat_events_dropped_total{reason="counter_settings"}')).toBe(0);
    expect(samples.get('stat_events_dead_lettered_total{reason="invalid_message"}')).toBe(1);
    expect(samples.get('stat_events_dead_lettered_total{reason="storage_refused"}')).toBe(0);
    expect(samples.get('stat_aggregator_batch_size_count')).toBe(2);
    expect(samples.get('stat_aggregator_batch_size_sum')).toBe(5);
    expect(samples.get('stat_aggregator_batch_size_bucket{le="1"}')).toBe(1);
    // One insert of event rows per batch.
    expect(samples.get('stat_storage_write_seconds_count')).toBe(2);
    expect(aggregator.newestStoredAt()).toBe(at + 5000);
  });

  it("applies the project's counter settings: excluded pages and unknown projects dropped and counted, www merged, the hash cut", async () => {
    const at = Date.now() - 7 * MINUTE;
    const settings = siteRulesFrom({ url: 'https://www.garden.ru', use_whitelist: true, whitelisted_urls: ['garden.ru'], blacklisted_urls: ['m.garden.ru'] });
    const aggregator = createAggregator(chdb.client, { siteRules: async (ids) => new Map(ids.filter((id) => id === 31).map((id) => [id, settings])) });
    await aggregator.handle([
      hit(31, 'visitor-f', at, 'https://www.garden.ru/roses#top', 'https://yandex.ru/'),
      hit(31, 'visitor-f', at + MINUTE, 'https://garden.ru/tulips', 'https://www.garden.ru/roses'),
      hit(31, 'visitor-g', at, 'https://stolen-copy.example/roses'),
      hit(31, 'visitor-h', at, 'https://m.garden.ru/roses'),
      // A project Postgres does not know (or a deleted one): its counter collects nothing.
      hit(32, 'visitor-i', at, 'https://www.other.ru/#x'),
    ]);
    expect(aggregator.stats).toEqual({ stored: 2, droppedBots: 0, droppedByRules: 2, droppedNoProject: 1, skippedReplays: 0, deadLettered: 0 });
    const stored = await chdb.rows<Record<string, unknown>>(
      'SELECT project_id, url, traffic_type FROM events WHERE project_id IN (31, 32) ORDER BY project_id, ts',
      {},
    );
    expect(stored).toEqual([
      { project_id: 31, url: 'https://garden.ru/roses', traffic_type: 'search' },
      { project_id: 31, url: 'https://garden.ru/tulips', traffic_type: 'search' },
    ]);
    // The excluded hits are recorded with their reason; the unknown project's hit is not.
    const dropped = await chdb.rows<{ project_id: number; reason: string; n: string }>(
      'SELECT project_id, reason, uniqExact(event_id) AS n FROM dropped_hits WHERE project_id IN (31, 32) GROUP BY project_id, reason ORDER BY reason',
      {},
    );
    expect(dropped.map((r) => [r.project_id, r.reason, Number(r.n)])).toEqual([
      [31, 'blacklisted', 1],
      [31, 'not_whitelisted', 1],
    ]);
  });

  it("stamps every page view of a visit with the visit's source, its first hit's, the referring site included", async () => {
    const at = Date.now() - 6 * MINUTE;
    await createAggregator(chdb.client).handle([
      hit(15, 'visitor-e', at, 'https://shop.ru/?utm_source=newsletter', 'https://yandex.ru/search/?text=%D0%BA%D1%83%D0%BF%D0%B8%D1%82%D1%8C'),
      hit(15, 'visitor-e', at + MINUTE, 'https://shop.ru/cart', 'https://shop.ru/?utm_source=newsletter'),
    ]);
    const stored = await chdb.rows<Record<string, unknown>>(
      'SELECT traffic_type, search_system, search_phrase, utm_source, referer_domain, referer_path FROM events WHERE project_id = {p:UInt32} ORDER BY ts',
      { p: 15 },
    );
    expect(stored).toEqual([
      { traffic_type: 'search', search_system: 'yandex', search_phrase: 'купить', utm_source: 'newsletter', referer_domain: 'yandex.ru', referer_path: '/search/' },
      // Opened from the site's own home page, the cart still came from Yandex («Сайты» counts it there).
      { traffic_type: 'search', search_system: 'yandex', search_phrase: 'купить', utm_source: 'newsletter', referer_domain: 'yandex.ru', referer_path: '/search/' },
    ]);
  });

  it('holds bounces and durations in the rollups, across a restart in the middle of a visit', async () => {
    const at = Date.now() - 25 * MINUTE;
    await createAggregator(chdb.client).handle([hit(16, 'bouncer-1', at), hit(16, 'reader-01', at)]);
    // The reader's second and third page views come to a new aggregator, as after a crash.
    await createAggregator(chdb.client).handle([hit(16, 'reader-01', at + 2 * MINUTE), hit(16, 'reader-01', at + 3 * MINUTE)]);
    const [day] = await chdb.rows<Record<string, string>>(
      'SELECT sum(page_views) AS page_views, sum(visit_starts) AS visits, sum(bounces) AS bounces, sum(duration_ms) AS duration_ms FROM rollup_day WHERE project_id = {p:UInt32}',
      { p: 16 },
    );
    expect(Object.fromEntries(Object.entries(day!).map(([k, v]) => [k, Number(v)]))).toEqual({
      page_views: 4,
      visits: 2,
      bounces: 1,
      duration_ms: 3 * MINUTE,
    });
    const numbers = await chdb.rows<{ event_number: number }>(
      "SELECT event_number FROM events WHERE project_id = {p:UInt32} AND visitor_id = 'reader-01' ORDER BY ts",
      { p: 16 },
    );
    expect(numbers.map((r) => r.event_number)).toEqual([1, 2, 3]);
  });

  it("keeps a visit's engaged time, bounce and last page view across a restart", async () => {
    const at = Date.now() - 40 * MINUTE;
    const report = (visitor: string, ms: number, d: number): AcceptedHit => {
      const base = hit(18, visitor, at + ms);
      return { ...base, hit: { ...base.hit, t: 'engagement', d } };
    };
    // A reader hides the tab after 5 minutes; a skimmer reports 10 s of engaged time.
    await createAggregator(chdb.client).handle([hit(18, 'reader-02', at), hit(18, 'skimmer-1', at), report('skimmer-1', 10_000, 10_000), report('reader-02', 5 * MINUTE, 5 * MINUTE)]);
    // After a crash: the skimmer's next 6 s of engagement end the bounce; the reader's second
    // page view lengthens the visit from the first page view (a report lengthens nothing).
    await createAggregator(chdb.client).handle([report('skimmer-1', 30_000, 6_000), hit(18, 'reader-02', at + 10 * MINUTE)]);
    const [day] = await chdb.rows<Record<string, string>>(
      'SELECT sum(page_views) AS page_views, sum(visit_starts) AS visits, sum(bounces) AS bounces, sum(duration_ms) AS duration_ms FROM rollup_day WHERE project_id = {p:UInt32}',
      { p: 18 },
    );
    expect(Object.fromEntries(Object.entries(day!).map(([k, v]) => [k, Number(v)]))).toEqual({
      page_views: 3,
      visits: 2,
      bounces: 0,
      duration_ms: 10 * MINUTE,
    });
  });

  it("numbers a visitor's visits, across a restart and after the visitor is long forgotten", async () => {
    const day = 24 * 60 * MINUTE;
    const start = Date.now() - 3 * day;
    const first = createAggregator(chdb.client);
    await first.handle([hit(33, 'loyal-visitor', start), hit(33, 'loyal-visitor', start + MINUTE), hit(33, 'once-only', start)]);
    // Two hours later: a new visit for the same process (it still holds the visitor).
    await first.handle([hit(33, 'loyal-visitor', start + 120 * MINUTE)]);
    // A day later another visitor's hit sweeps the loyal one from memory; the loyal visitor's
    // next visit is numbered from storage.
    await first.handle([hit(33, 'once-only', start + day - 10 * MINUTE)]);
    expect(first.visits.knows(33, 'loyal-visitor')).toBe(false);
    await first.handle([hit(33, 'loyal-visitor', start + day)]);
    // Another day later, a new process, as after kill -9.
    await createAggregator(chdb.client).handle([hit(33, 'loyal-visitor', start + 2 * day), hit(33, 'newcomer-1', start + 2 * day)]);
    const stored = await chdb.rows<{ visitor_id: string; session_number: number }>(
      'SELECT visitor_id, session_number FROM events WHERE project_id = {p:UInt32} ORDER BY visitor_id, ts',
      { p: 33 },
    );
    expect(stored).toEqual([
      { visitor_id: 'loyal-visitor', session_number: 1 },
      { visitor_id: 'loyal-visitor', session_number: 1 },
      { visitor_id: 'loyal-visitor', session_number: 2 },
      { visitor_id: 'loyal-visitor', session_number: 3 },
      { visitor_id: 'loyal-visitor', session_number: 4 },
      { visitor_id: 'newcomer-1', session_number: 1 },
      { visitor_id: 'once-only', session_number: 1 },
      { visitor_id: 'once-only', session_number: 2 },
    ]);
    const visitsTable = await chdb.rows<{ session_number: number; n: string }>(
      "SELECT session_number, count() AS n FROM visits FINAL WHERE project_id = {p:UInt32} AND visitor_id = 'loyal-visitor' GROUP BY session_number ORDER BY session_number",
      { p: 33 },
    );
    expect(visitsTable.map((r) => r.session_number)).toEqual([1, 2, 3, 4]);
  });

  it('stores custom events, block clicks and engaged time in the visit of their page view', async () => {
    const at = Date.now() - 90 * MINUTE;
    const base = hit(17, 'visitor-f', at, 'https://shop.ru/item');
    const event: AcceptedHit = { ...hit(17, 'visitor-f', at + MINUTE), hit: { ...base.hit, t: 'event', ec: 'ec', en: 'add_to_cart', ep: { sku: 'A-1', price: 990 }, uid: 'user-7' } };
    const click: AcceptedHit = { ...hit(17, 'visitor-f', at + 2 * MINUTE), hit: { ...base.hit, t: 'click', bl: 'buy-button' } };
    // The tab stayed visible for 50 minutes; its engaged time arrives when it is hidden.
    const engaged: AcceptedHit = { ...hit(17, 'visitor-f', at + 52 * MINUTE), hit: { ...base.hit, t: 'engagement', d: 3_000_000 } };
    await createAggregator(chdb.client).handle([base, event, click, engaged]);
    const stored = await chdb.rows<Record<string, unknown>>(
      `SELECT event_type, event_class, event_name, event_params, user_id, block_name, engaged_ms, event_number
       FROM events WHERE project_id = {p:UInt32} ORDER BY ts`,
      { p: 17 },
    );
    expect(stored).toEqual([
      { event_type: 'pageview', event_class: 'base', event_name: 'pageview', event_params: {}, user_id: '', block_name: '', engaged_ms: 0, event_number: 1 },
      { event_type: 'event', event_class: 'ec', event_name: 'add_to_cart', event_params: { sku: 'A-1', price: '990' }, user_id: 'user-7', block_name: '', engaged_ms: 0, event_number: 2 },
      { event_type: 'click', event_class: 'ub', event_name: 'click', event_params: {}, user_id: '', block_name: 'buy-button', engaged_ms: 0, event_number: 3 },
      { event_type: 'engagement', event_class: 'base', event_name: 'engagement', event_params: {}, user_id: '', block_name: '', engaged_ms: 3_000_000, event_number: 4 },
    ]);
    const [day] = await chdb.rows<Record<string, string>>(
      'SELECT sum(page_views) AS pv, sum(visit_starts) AS visits, sum(bounces) AS bounces, sum(duration_ms) AS duration FROM rollup_day WHERE project_id = {p:UInt32}',
      { p: 17 },
    );
    // One visit of one page view, lasting to the click (the late report adds nothing): not a
    // bounce, since the event a minute after the page view shows it lasted 15 s or more.
    expect(Object.values(day!).map(Number)).toEqual([1, 1, 0, 2 * MINUTE]);
  });

  it('names link clicks by their link, and stores form sends and article ends: the events the autogoals count', async () => {
    const at = Date.now() - 80 * MINUTE;
    const base = hit(43, 'visitor-links', at, 'https://shop.ru/contacts');
    const click = (n: number, l: string): AcceptedHit => ({ ...hit(43, 'visitor-links', at + n * 1000), hit: { ...base.hit, t: 'outbound', l } });
    const form: AcceptedHit = { ...hit(43, 'visitor-links', at + 5000), hit: { ...base.hit, t: 'event', ec: 'base', en: 'form' } };
    const end: AcceptedHit = { ...hit(43, 'visitor-links', at + 6000), hit: { ...base.hit, t: 'event', ec: 'base', en: 'scroll' } };
    await createAggregator(chdb.client).handle([
      base,
      click(1, 'https://partner.ru/offer'),
      click(2, 'https://shop.ru/files/price.PDF?v=2'),
      click(3, 'tel:+74950000000'),
      click(4, 'mailto:shop@shop.ru'),
      form,
      end,
    ]);
    const stored = await chdb.rows<Record<string, unknown>>(
      'SELECT event_type, event_class, event_name, link_url FROM events WHERE project_id = {p:UInt32} ORDER BY ts',
      { p: 43 },
    );
    expect(stored).toEqual([
      { event_type: 'pageview', event_class: 'base', event_name: 'pageview', link_url: '' },
      { event_type: 'outbound', event_class: 'base', event_name: 'outbound', link_url: 'https://partner.ru/offer' },
      { event_type: 'outbound', event_class: 'base', event_name: 'download', link_url: 'https://shop.ru/files/price.PDF?v=2' },
      { event_type: 'outbound', event_class: 'base', event_name: 'tel', link_url: 'tel:+74950000000' },
      { event_type: 'outbound', event_class: 'base', event_name: 'mailto', link_url: 'mailto:shop@shop.ru' },
      { event_type: 'event', event_class: 'base', event_name: 'form', link_url: '' },
      { event_type: 'event', event_class: 'base', event_name: 'scroll', link_url: '' },
    ]);
  });

  it('keeps the visits table current: entry, exit, depth and duration', async () => {
    const at = Date.now() - 20 * MINUTE;
    const aggregator = createAggregator(chdb.client);
    await aggregator.handle([hit(13, 'visitor-c', at, 'https://shop.ru/a')]);
    await aggregator.handle([hit(13, 'visitor-c', at + 2 * MINUTE, 'https://shop.ru/b'), hit(13, 'visitor-c', at + 3 * MINUTE, 'https://shop.ru/c')]);
    const visits = await chdb.rows<Record<string, unknown>>(
      `SELECT sum(page_views) AS depth, argMinMerge(entry_url) AS entry, argMaxMerge(exit_url) AS exit,
              toUnixTimestamp64Milli(max(end_ts)) - toUnixTimestamp64Milli(min(start_ts)) AS duration_ms
       FROM visits WHERE project_id = {p:UInt32} GROUP BY session_id`,
      { p: 13 },
    );
    expect(visits.map((v) => ({ ...v, depth: Number(v.depth), duration_ms: Number(v.duration_ms) }))).toEqual([
      { depth: 3, entry: 'https://shop.ru/a', exit: 'https://shop.ru/c', duration_ms: 3 * MINUTE },
    ]);
  });
});

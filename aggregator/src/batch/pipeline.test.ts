import { describe, expect, it } from 'vitest';
import type { AcceptedHit } from '@stat/schemas';
import { createAggregator } from '../aggregator.js';
import { createEnricher } from '../enrich/index.js';
import { VisitCutter } from '../sessions.js';
import { SiteRulesCache, siteRulesFrom } from '../site-rules.js';
import { EventStore } from '../storage.js';
import { chdbOfFile } from '../testing/chdb.js';
import { GOOGLEBOT, pageViewMaker } from '../testing/hits.js';
import { readBatch } from './messages.js';
import { BatchPipeline } from './pipeline.js';
import { SliceRebuilder } from './rebuild-slices.js';
import { ReplayCheck } from './replay-check.js';
import { ResentCheck } from './resent-check.js';
import { Tally } from './tally.js';
import { VisitRecall } from './visit-recall.js';
import { BatchWriter } from './write-batch.js';

// Needs: chDB (in-process), one data directory for the file. Projects 5 and 9 are this file's.
const chdb = chdbOfFile('pipeline');

const MINUTE = 60_000;
const pageView = pageViewMaker();
const hit = (project: number, visitor: string, at: number, url?: string, ua?: string): AcceptedHit => pageView({ project, visitor, at, url, ua });

/**
 * The aggregator's pipeline on the chDB of the file, composed as createAggregator composes it:
 * project 5 is the only live one (shop.ru, ads.shop.ru blacklisted). The counter settings come
 * from the api's Postgres in production, which the aggregator does not import; here they are given.
 */
function pipelineOnChdb() {
  const store = new EventStore(chdb.client);
  const rules = new SiteRulesCache(async (ids) => new Map(ids.filter((id) => id === 5).map((id) => [id, siteRulesFrom({ url: 'https://shop.ru', blacklisted_urls: ['ads.shop.ru'] })])));
  const visits = new VisitCutter();
  const tally = new Tally(null);
  const pipeline = new BatchPipeline({
    replays: new ReplayCheck(store, (tokens) => new SliceRebuilder(chdb.client).rebuild(tokens)),
    resends: new ResentCheck(store),
    rules,
    enricher: createEnricher(),
    visits,
    recall: new VisitRecall(store, visits, { restore: true, startedAt: Date.now() }),
    writer: new BatchWriter(store, null, null),
    tally,
  });
  return { pipeline, visits, stats: tally.stats };
}

describe('BatchPipeline on chDB', () => {
  it('drops what it will not store before looking up any visitor, and counts a bot of an unknown project as no project', async () => {
    const at = Date.now() - 20 * MINUTE;
    // A previous run stored a visit of every visitor of the batch, the crawler still under a browser's agent.
    const earlier = [hit(5, 'reader-01', at - 10 * MINUTE), hit(5, 'crawler-01', at - 10 * MINUTE), hit(5, 'adviewer-01', at - 10 * MINUTE)];
    await createAggregator(chdb.client).handle([...earlier, hit(9, 'stranger-01', at - 10 * MINUTE), hit(9, 'crawler-09', at - 10 * MINUTE)]);
    const { pipeline, visits, stats } = pipelineOnChdb();
    const batch = [
      hit(5, 'reader-01', at),
      hit(5, 'crawler-01', at + 1000, 'https://shop.ru/', GOOGLEBOT),
      hit(5, 'adviewer-01', at + 2000, 'https://ads.shop.ru/banner'),
      hit(9, 'stranger-01', at + 3000),
      hit(9, 'crawler-09', at + 4000, 'https://other.ru/', GOOGLEBOT),
    ];
    const since = Date.now();
    await pipeline.start(readBatch([...batch, `not json ${since}`], undefined)).attempt(false);
    // A visitor looked up has their stored visit restored into the cutter: only the reader's is.
    const held = [[5, 'reader-01'], [5, 'crawler-01'], [5, 'adviewer-01'], [9, 'stranger-01'], [9, 'crawler-09']] as const;
    expect({
      stats,
      held: held.filter(([project, visitor]) => visits.knows(project, visitor)).map(([, visitor]) => visitor),
      dropped: await chdb.rows('SELECT toString(event_id) AS id, reason FROM dropped_hits FINAL ORDER BY reason'),
      dead: await chdb.rows('SELECT reason FROM dead_hits FINAL WHERE raw = {raw:String}', { raw: `not json ${since}` }),
      // The reader's hit goes on the visit stored before, as its second event.
      reader: await chdb.rows("SELECT toUInt32(count()) AS events, toUInt32(uniqExact(session_id)) AS visits, max(event_number) AS last FROM events WHERE visitor_id = 'reader-01'"),
    }).toEqual({
      stats: { stored: 1, droppedBots: 1, droppedByRules: 1, droppedNoProject: 2, skippedReplays: 0, deadLettered: 1 },
      held: ['reader-01'],
      dropped: [
        { id: batch[2]!.id, reason: 'blacklisted' },
        { id: batch[1]!.id, reason: 'bot' },
      ],
      dead: [{ reason: 'body: not valid JSON' }],
      reader: [{ events: 2, visits: 1, last: 2 }],
    });
  });

  it('after a try whose insert landed, keeps the batch as cut and writes none of its rows again', async () => {
    const at = Date.now() - 10 * MINUTE;
    const { pipeline, stats } = pipelineOnChdb();
    const batch = pipeline.start(readBatch([hit(5, 'first-001', at), hit(5, 'second-01', at + 1000)], { topic: 'hits', partition: 0, offsets: [0, 1] }));
    // A view on events that fails the insert after the events' part is written: the insert
    // lands, and the try fails all the same, as when the connection breaks before the answer.
    await chdb.client.command({
      query: "CREATE MATERIALIZED VIEW landed_then_failed ENGINE = Null AS SELECT throwIf(visitor_id = 'first-001', 'socket hang up') AS failed FROM events",
    });
    try {
      await expect(batch.attempt(false)).rejects.toThrow('socket hang up');
      expect(await chdb.rows("SELECT visitor_id FROM events WHERE visitor_id IN ('first-001', 'second-01') ORDER BY visitor_id")).toEqual([
        { visitor_id: 'first-001' },
        { visitor_id: 'second-01' },
      ]);
    } finally {
      await chdb.client.command({ query: 'DROP VIEW landed_then_failed' });
    }
    await batch.attempt(true);
    expect({
      stats,
      events: await chdb.rows("SELECT visitor_id, toUInt32(bus_offset) AS offset, toUInt32(count()) AS n FROM events WHERE visitor_id IN ('first-001', 'second-01') GROUP BY visitor_id, offset ORDER BY visitor_id"),
    }).toEqual({
      stats: { stored: 2, droppedBots: 0, droppedByRules: 0, droppedNoProject: 0, skippedReplays: 0, deadLettered: 0 },
      events: [
        { visitor_id: 'first-001', offset: 0, n: 1 },
        { visitor_id: 'second-01', offset: 1, n: 1 },
      ],
    });
  });
});

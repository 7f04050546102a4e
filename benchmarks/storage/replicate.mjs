// Multiplies the events of a chDB data directory: copy k (1 … FACTOR-1) of every event belongs to a
// visitor of its own (visitor id suffixed with `~k`, so a new visitor hash), with its own session
// and event keys, at the same time and on the same pages. The copies go through INSERT … SELECT, so
// the materialized views fill the visits and every rollup as they would for hits. Used to reach
// 100 million events from a generated 10 million in minutes rather than hours; the traffic's shape
// (sources, pages, hours) is the generated one, with FACTOR times the visitors.
//
//   node benchmarks/storage/replicate.mjs <DATA_DIR>/clickhouse 10
//
// FIRST_COPY=k (default 1) starts at copy k: for a directory that already holds copies 1 … k-1
// (a set made by an earlier run), so that the new copies' visitors are new too.
//
// chDB allows one process per data directory: run it while no service or generator uses it.
import { createClickHouse } from '@stat/storage';

const [path, factorText = '10'] = process.argv.slice(2);
const factor = Number(factorText);
if (!path || !Number.isInteger(factor) || factor < 2) {
  console.error('usage: replicate.mjs <chdb data directory> <factor ≥ 2>');
  process.exit(2);
}
const ch = createClickHouse({ kind: 'chdb', path });
const rows = async (query) => (await ch.query({ query, format: 'JSONEachRow' })).json();

const [{ n: before }] = await rows('SELECT count() AS n FROM events');
const stored = (await rows(`SELECT name FROM system.columns WHERE database = currentDatabase() AND table = 'events'
                            AND default_kind NOT IN ('ALIAS', 'MATERIALIZED') AND name != 'visitor_hash' ORDER BY position`)).map((r) => r.name);
const copied = {
  visitor_id: (k) => `concat(visitor_id, '~${k}')`,
  session_id: (k) => `cityHash64(session_id, ${k})`,
  event_key: (k) => `cityHash64(event_key, ${k})`,
};
const days = (await rows('SELECT DISTINCT event_date AS d FROM events ORDER BY d')).map((r) => r.d);
console.log(`${Number(before).toLocaleString('en-US')} events over ${days.length} days, ×${factor}`);
const started = Date.now();
const firstCopy = Number(process.env.FIRST_COPY || 1);
for (let k = firstCopy; k < factor; k++) {
  const select = stored.map((c) => (copied[c] ? `${copied[c](k)} AS ${c}` : c)).join(', ');
  // A day at a time: one insert block per day keeps the views' memory small.
  for (const day of days) {
    await ch.command({
      // The originals are chosen in a subquery: in ClickHouse the select's aliases (visitor_id AS
      // visitor_id) would shadow the columns in its own WHERE.
      query: `INSERT INTO events (${stored.join(', ')}) SELECT ${select}
              FROM (SELECT * FROM events WHERE event_date = '${day}' AND position(visitor_id, '~') = 0)`,
    });
  }
  console.log(`copy ${k}: ${((Date.now() - started) / 1000).toFixed(0)} s`);
}
const [{ n: after }] = await rows('SELECT count() AS n FROM events');
console.log(`${Number(after).toLocaleString('en-US')} events in ${((Date.now() - started) / 1000).toFixed(0)} s`);

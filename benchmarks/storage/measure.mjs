// Bytes per event on disk: merges every table of a chDB data directory to one part per partition
// (OPTIMIZE TABLE ... FINAL), then reads system.parts (active parts) and system.columns.
// With --codecs it also copies the events table into a scratch table whose columns carry other
// codecs and types, to show what each change would save (the migrations are not touched).
//
//   node benchmarks/storage/measure.mjs <DATA_DIR>/clickhouse [--codecs] [--json out.json]
//
// chDB allows one process per data directory: run it after the generator has exited.
import { writeFileSync } from 'node:fs';
import { createClickHouse } from '@stat/storage';

const path = process.argv[2];
if (!path) {
  console.error('usage: measure.mjs <chdb data directory> [--codecs] [--json file]');
  process.exit(2);
}
const codecs = process.argv.includes('--codecs');
const jsonAt = process.argv.indexOf('--json');
const jsonFile = jsonAt > 0 ? process.argv[jsonAt + 1] : null;

const ch = createClickHouse({ kind: 'chdb', path });
const rows = async (query) => (await ch.query({ query, format: 'JSONEachRow' })).json();
const run = (query) => ch.command({ query, clickhouse_settings: { mutations_sync: '2' } });

const mb = (b) => (Number(b) / 1e6).toFixed(1);
const perEvent = (b, n) => (Number(b) / n).toFixed(2);

const tables = (await rows(`SELECT name FROM system.tables WHERE database = currentDatabase() AND engine LIKE '%MergeTree' ORDER BY name`)).map((r) => r.name);
const events = Number((await rows('SELECT count() AS n FROM events'))[0].n);
if (events === 0) throw new Error('events is empty');

let started = Date.now();
for (const t of tables) await run(`OPTIMIZE TABLE ${t} FINAL`);
const optimizeSeconds = (Date.now() - started) / 1000;

const parts = await rows(`
  SELECT table, sum(rows) AS rows, count() AS parts,
         sum(data_compressed_bytes) AS compressed, sum(data_uncompressed_bytes) AS uncompressed,
         sum(bytes_on_disk) AS on_disk
  FROM system.parts WHERE active AND database = currentDatabase()
  GROUP BY table ORDER BY compressed DESC`);
const columns = await rows(`
  SELECT name, type, compression_codec AS codec,
         data_compressed_bytes AS compressed, data_uncompressed_bytes AS uncompressed
  FROM system.columns WHERE database = currentDatabase() AND table = 'events'
  ORDER BY data_compressed_bytes DESC`);

const sum = (list, key) => list.reduce((s, r) => s + Number(r[key]), 0);
const eventsPart = parts.find((p) => p.table === 'events');
const result = {
  events,
  optimizeSeconds,
  eventsTable: { compressed: Number(eventsPart.compressed), onDisk: Number(eventsPart.on_disk), uncompressed: Number(eventsPart.uncompressed) },
  allTables: { compressed: sum(parts, 'compressed'), onDisk: sum(parts, 'on_disk'), uncompressed: sum(parts, 'uncompressed') },
  parts,
  columns,
};

console.log(`events: ${events.toLocaleString('en-US')}; OPTIMIZE ... FINAL of ${tables.length} tables took ${optimizeSeconds.toFixed(0)} s\n`);
console.log('| table | rows | parts | compressed MB | uncompressed MB | on disk MB | compressed bytes / event |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const p of parts) {
  console.log(`| ${p.table} | ${Number(p.rows).toLocaleString('en-US')} | ${p.parts} | ${mb(p.compressed)} | ${mb(p.uncompressed)} | ${mb(p.on_disk)} | ${perEvent(p.compressed, events)} |`);
}
console.log(
  `| **events alone** | | | ${mb(result.eventsTable.compressed)} | ${mb(result.eventsTable.uncompressed)} | ${mb(result.eventsTable.onDisk)} | **${perEvent(result.eventsTable.compressed, events)}** (on disk ${perEvent(result.eventsTable.onDisk, events)}) |`,
);
console.log(
  `| **all tables** | | | ${mb(result.allTables.compressed)} | ${mb(result.allTables.uncompressed)} | ${mb(result.allTables.onDisk)} | **${perEvent(result.allTables.compressed, events)}** (on disk ${perEvent(result.allTables.onDisk, events)}) |`,
);

// The split the issue asks for: events, visits, the time rollups, everything else.
const groupOf = (t) => (t === 'events' ? 'events' : t === 'visits' ? 'visits' : t.startsWith('rollup_') ? 'rollups' : 'others');
result.groups = {};
for (const p of parts) {
  const g = (result.groups[groupOf(p.table)] ??= { tables: [], compressed: 0, onDisk: 0 });
  g.tables.push(p.table);
  g.compressed += Number(p.compressed);
  g.onDisk += Number(p.on_disk);
}
console.log('\n| group | tables | compressed MB | compressed bytes / event | on disk bytes / event |');
console.log('| --- | --- | ---: | ---: | ---: |');
for (const [name, g] of Object.entries(result.groups)) {
  console.log(`| ${name} | ${g.tables.join(', ')} | ${mb(g.compressed)} | ${perEvent(g.compressed, events)} | ${perEvent(g.onDisk, events)} |`);
}

console.log('\nevents, by column (active parts):\n');
console.log('| column | type | codec | compressed MB | uncompressed MB | ratio | bytes / event |');
console.log('| --- | --- | --- | ---: | ---: | ---: | ---: |');
for (const c of columns) {
  const ratio = Number(c.compressed) > 0 ? (Number(c.uncompressed) / Number(c.compressed)).toFixed(1) : '-';
  console.log(`| ${c.name} | ${c.type} | ${c.codec || '(default LZ4)'} | ${mb(c.compressed)} | ${mb(c.uncompressed)} | ${ratio} | ${perEvent(c.compressed, events)} |`);
}

// Which dimensions fill the dimension rollups: rows, and the uniq states' size estimated as four
// bytes per distinct value they hold (visits and visitors; a uniq state keeps up to 65 536 hashes).
result.dimensions = {};
for (const table of tables.filter((t) => t.startsWith('rollup_dim_'))) {
  const dims = await rows(`SELECT dimension, count() AS rows, uniqExact(value) AS values,
                                  sum(finalizeAggregation(visits) + finalizeAggregation(visitors)) * 4 AS state_bytes
                           FROM ${table} GROUP BY dimension ORDER BY state_bytes DESC`);
  result.dimensions[table] = dims;
  const total = dims.reduce((s, d) => s + Number(d.state_bytes), 0);
  console.log(`\n${table}, by dimension (state bytes estimated, uncompressed):\n`);
  console.log('| dimension | rows | distinct values | state MB (est.) | share |');
  console.log('| --- | ---: | ---: | ---: | ---: |');
  for (const d of dims) {
    console.log(`| ${d.dimension} | ${Number(d.rows).toLocaleString('en-US')} | ${Number(d.values).toLocaleString('en-US')} | ${mb(d.state_bytes)} | ${((100 * Number(d.state_bytes)) / total).toFixed(1)} % |`);
  }
}

if (codecs) {
  // Each candidate: a column of the scratch table, the expression that fills it, and the column it would replace.
  const candidates = [
    ['event_key', 'event_key_z', 'UInt64 CODEC(ZSTD(1))', 'event_key'],
    ['user_agent', 'user_agent_lc', 'LowCardinality(String)', 'user_agent'],
    ['user_agent', 'user_agent_z3', 'String CODEC(ZSTD(3))', 'user_agent'],
    ['url', 'url_z3', 'String CODEC(ZSTD(3))', 'url'],
    ['url', 'url_lc', 'LowCardinality(String)', 'url'],
    ['title', 'title_z3', 'String CODEC(ZSTD(3))', 'title'],
    ['title', 'title_lc', 'LowCardinality(String)', 'title'],
    ['referrer', 'referrer_z3', 'String CODEC(ZSTD(3))', 'referrer'],
    ['url_no_args', 'url_no_args_lc', 'LowCardinality(String)', 'url_no_args'],
    ['visitor_id', 'visitor_id_z3', 'String CODEC(ZSTD(3))', 'visitor_id'],
    ['session_id', 'session_id_z', 'UInt64 CODEC(ZSTD(1))', 'session_id'],
    ['session_start', 'session_start_dz', "DateTime64(3, 'UTC') CODEC(Delta(8), ZSTD(1))", 'session_start'],
    ['session_start', 'session_start_ddz', "DateTime64(3, 'UTC') CODEC(DoubleDelta, ZSTD(1))", 'session_start'],
    ['ts', 'ts_ddz', "DateTime64(3, 'UTC') CODEC(DoubleDelta, ZSTD(1))", 'ts'],
    ['ts', 'ts_t64z', "DateTime64(3, 'UTC') CODEC(T64, ZSTD(1))", 'ts'],
    ['visitor_hash', 'visitor_hash_dz', 'UInt32 CODEC(Delta(4), ZSTD(1))', 'visitor_hash'],
    ['geo_city', 'geo_city_t64', 'UInt32 CODEC(T64, ZSTD(1))', 'geo_city'],
    ['geo_city', 'geo_city_z', 'UInt32 CODEC(ZSTD(1))', 'geo_city'],
    ['geo_area', 'geo_area_z', 'UInt32 CODEC(ZSTD(1))', 'geo_area'],
    ['screen_width', 'screen_width_z', 'UInt16 CODEC(ZSTD(1))', 'screen_width'],
    ['bus_offset', 'bus_offset_dz', 'Int64 CODEC(Delta(8), ZSTD(1))', 'bus_offset'],
    ['referer_path', 'referer_path_z3', 'String CODEC(ZSTD(3))', 'referer_path'],
  ];
  const existing = new Set(columns.map((c) => c.name));
  const usable = candidates.filter(([source]) => existing.has(source));
  await run('DROP TABLE IF EXISTS codec_lab');
  // Same key and order as events, so neighbouring values are the same as there.
  await run(`CREATE TABLE codec_lab (project_id UInt32, event_date Date, visitor_hash UInt32, ts DateTime64(3, 'UTC'),
             ${usable.map(([, name, type]) => `${name} ${type}`).join(', ')})
             ENGINE = MergeTree PARTITION BY toYYYYMM(event_date) ORDER BY (project_id, event_date, visitor_hash, ts)`);
  started = Date.now();
  await run(`INSERT INTO codec_lab SELECT project_id, event_date, visitor_hash, ts, ${usable.map(([source]) => source).join(', ')} FROM events`);
  await run('OPTIMIZE TABLE codec_lab FINAL');
  const lab = await rows(`SELECT name, type, data_compressed_bytes AS compressed FROM system.columns
                          WHERE database = currentDatabase() AND table = 'codec_lab'`);
  const byName = new Map(lab.map((c) => [c.name, Number(c.compressed)]));
  const current = new Map(columns.map((c) => [c.name, Number(c.compressed)]));
  result.codecLab = [];
  console.log(`\ncodec experiments (scratch copy of events, ${((Date.now() - started) / 1000).toFixed(0)} s):\n`);
  console.log('| column | now | MB now | candidate | MB | bytes / event saved |');
  console.log('| --- | --- | ---: | --- | ---: | ---: |');
  for (const [source, name, type] of usable) {
    const now = current.get(source) ?? 0;
    const then = byName.get(name) ?? 0;
    const codec = columns.find((c) => c.name === source);
    result.codecLab.push({ column: source, candidate: type, now, then });
    console.log(`| ${source} | ${codec.type} ${codec.codec} | ${mb(now)} | ${type} | ${mb(then)} | ${perEvent(now - then, events)} |`);
  }
  await run('DROP TABLE codec_lab');
}

if (jsonFile) writeFileSync(jsonFile, JSON.stringify(result, null, 2));
await ch.close();

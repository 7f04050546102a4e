// What other column types and codecs would save, measured on a scratch copy of one table of a chDB
// data directory: the copy takes the table's own definition with the given columns changed, is
// filled from the table, merged to one part per partition, and compared column by column
// (compressed bytes per stored event). The table itself and the migrations are not touched.
//
//   T=events node benchmarks/storage/codec-lab.mjs <DATA_DIR>/clickhouse \
//     'user_agent=LowCardinality(String) CODEC(ZSTD(1)); engaged_ms=UInt32 CODEC(ZSTD(1))'
//
// A change `column=TYPE CODEC` alters the copy's column; `@column=EXPR` fills it with an expression
// of the table's columns instead (e.g. another kind of key). chDB allows one process per directory.
import { createClickHouse } from '@stat/storage';

const [path, spec = ''] = process.argv.slice(2);
if (!path) {
  console.error("usage: codec-lab.mjs <chdb data directory> 'column=TYPE CODEC; @column=EXPR; ...'");
  process.exit(2);
}
const table = process.env.T ?? 'events';
const ch = createClickHouse({ kind: 'chdb', path });
const rows = async (query) => (await ch.query({ query, format: 'JSONEachRow' })).json();
const run = (query) => ch.command({ query, clickhouse_settings: { mutations_sync: '2' } });

const changes = new Map(
  spec.split(';').map((s) => s.trim()).filter(Boolean).map((s) => {
    const at = s.indexOf('=');
    return [s.slice(0, at).trim(), s.slice(at + 1).trim()];
  }),
);
const columnsOf = (name) => rows(`SELECT name, type, compression_codec AS codec, data_compressed_bytes AS bytes, default_kind AS kind
  FROM system.columns WHERE database = currentDatabase() AND table = '${name}'`);

const events = Number((await rows('SELECT count() AS n FROM events'))[0].n);
const [{ ddl }] = await rows(`SELECT create_table_query AS ddl FROM system.tables WHERE database = currentDatabase() AND name = '${table}'`);
await run('DROP TABLE IF EXISTS codec_lab');
await run(ddl.replace(/^CREATE TABLE \S+/, 'CREATE TABLE codec_lab'));
for (const [column, type] of changes) if (!column.startsWith('@')) await run(`ALTER TABLE codec_lab MODIFY COLUMN ${column} ${type}`);

const stored = (await columnsOf(table)).filter((c) => c.kind !== 'ALIAS' && c.kind !== 'MATERIALIZED').map((c) => c.name);
const filled = stored.map((c) => (changes.has(`@${c}`) ? `${changes.get(`@${c}`)} AS ${c}` : c));
await run(`INSERT INTO codec_lab (${stored.join(', ')}) SELECT ${filled.join(', ')} FROM ${table}`);
await run(`OPTIMIZE TABLE ${table} FINAL`);
await run('OPTIMIZE TABLE codec_lab FINAL');

const before = new Map((await columnsOf(table)).map((c) => [c.name, Number(c.bytes)]));
const perEvent = (b) => (b / events).toFixed(2);
let was = 0;
let now = 0;
console.log(`| column | type | codec | bytes / event now | with the change |\n| --- | --- | --- | ---: | ---: |`);
for (const c of await columnsOf('codec_lab')) {
  const old = before.get(c.name) ?? 0;
  was += old;
  now += Number(c.bytes);
  if (Math.abs(Number(c.bytes) - old) / events >= 0.02) console.log(`| ${c.name} | ${c.type} | ${c.codec || 'LZ4'} | ${perEvent(old)} | ${perEvent(Number(c.bytes))} |`);
}
console.log(`\n${table}: ${perEvent(was)} → ${perEvent(now)} compressed bytes per event (${events.toLocaleString('en-US')} events)`);
await run('DROP TABLE codec_lab');

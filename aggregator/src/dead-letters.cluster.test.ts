import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel, type Consumer, type Producer } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventKeyOf, type AcceptedHit } from '@stat/schemas';
import { createClickHouse, migrateClickHouse, type ClickHouseClient } from '@stat/storage';
import { KafkaConsumer, KafkaDeadLetters, committedMessages, deadLetterTopic, ensureTopic, type KafkaBusConfig } from '@stat/bus';
import { createAggregator } from './aggregator.js';

// Needs: the real Kafka broker of infra/ (KAFKA_BROKERS, default 127.0.0.1:9092); chDB for the
// ClickHouse data (with a CHECK constraint of its own on events, so that ClickHouse refuses a row
// that passes the schema). Topics and group are this run's own; project ids 51 to 59 this file's.
const brokers = (process.env.KAFKA_BROKERS || '127.0.0.1:9092').split(',');
const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const bus: KafkaBusConfig = { brokers, topic: `stat-hits-dead-${run}`, partitions: 1, clientId: 'dead-letter-test' };
const group = `stat-aggregator-dead-${run}`;
const kafka = new Kafka({ clientId: 'dead-letter-test', brokers, logLevel: logLevel.WARN });

let dataDir = '';
let clickhouse: ClickHouseClient;
let deadLetters: KafkaDeadLetters;
let consumer: KafkaConsumer;
let producer: Producer;
let reader: Consumer | null = null;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'stat-dead-cluster-'));
  clickhouse = createClickHouse({ kind: 'chdb', path: dataDir });
  await migrateClickHouse(clickhouse);
  await clickhouse.command({ query: "ALTER TABLE events ADD CONSTRAINT poison CHECK title != 'poison'" });
  await ensureTopic(bus);
  deadLetters = await KafkaDeadLetters.open(bus);
  const aggregator = createAggregator(clickhouse, { deadLetters, retryMs: 100, log: () => undefined });
  consumer = new KafkaConsumer(bus, group, () => undefined);
  await consumer.start(aggregator.handle);
  producer = kafka.producer();
  await producer.connect();
});

afterAll(async () => {
  await reader?.disconnect();
  await producer?.disconnect();
  await consumer?.stop();
  await deadLetters?.close();
  await clickhouse?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
let sequence = 0;
function hit(project: number, title = ''): AcceptedHit {
  sequence += 1;
  const id = `00000000-0000-4000-8000-${String(5100 + sequence).padStart(12, '0')}`;
  return { id, at: Date.now() - 60_000 + sequence, ip: '77.88.55.88', ua: CHROME, hit: { p: project, t: 'pageview', u: 'https://shop.ru/', r: '', ti: title, sw: 0, sh: 0, v: 'visitor-51' } };
}

async function eventually(check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function storedIds(project: number): Promise<string[]> {
  const result = await clickhouse.query({ query: 'SELECT toString(event_key) AS event_key FROM events WHERE project_id = {p:UInt32} ORDER BY event_key', query_params: { p: project }, format: 'JSONEachRow' });
  return (await result.json<{ event_key: string }>()).map((r) => r.event_key);
}

describe('dead letters through Kafka', () => {
  it('sets aside poison messages in dead_hits and on the -dead topic, stores the valid ones around them, and commits', async () => {
    const first = hit(51);
    const outOfRange = hit(51);
    const bigProject = JSON.stringify({ ...outOfRange, hit: { ...outOfRange.hit, p: 2_147_483_648 } });
    const refused = JSON.stringify(hit(51, 'poison'));
    const last = hit(51);
    await producer.send({
      topic: bus.topic,
      acks: -1,
      messages: [
        { key: 'a', value: JSON.stringify(first) },
        { key: 'a', value: bigProject },
        { key: 'a', value: 'not json at all' },
        { key: 'a', value: null },
        { key: 'a', value: refused },
        { key: 'a', value: JSON.stringify(last) },
      ],
    });
    await eventually(async () => (await committedMessages(bus, group)) === 6);
    expect(await storedIds(51)).toEqual([first.id, last.id].map(eventKeyOf));

    const dead = await clickhouse.query({ query: 'SELECT project_id, event_id, reason, raw FROM dead_hits FINAL ORDER BY raw', format: 'JSONEachRow' });
    const refusedRow = JSON.parse(refused) as AcceptedHit;
    const expected = [
      { project_id: 0, event_id: '', reason: 'body: not valid JSON', raw: '' },
      { project_id: 0, event_id: '', reason: 'body: not valid JSON', raw: 'not json at all' },
      { project_id: 0, event_id: outOfRange.id, reason: 'hit.p: must be at most 2147483647', raw: bigProject },
      { project_id: 51, event_id: refusedRow.id, reason: expect.stringMatching(/^Constraint `poison` for table default\.events .* is violated at row 1\./), raw: refused },
    ].sort((a, b) => (a.raw < b.raw ? -1 : 1));
    expect(await dead.json()).toEqual(expected);

    // The same letters on the dead-letter topic, keyed by project.
    const letters: { key: string; reason: string; raw: string; eventId: string; projectId: number }[] = [];
    reader = kafka.consumer({ groupId: `${group}-reader` });
    await reader.connect();
    await reader.subscribe({ topic: deadLetterTopic(bus.topic), fromBeginning: true });
    await reader.run({
      eachMessage: async ({ message }) => {
        const letter = JSON.parse(message.value?.toString('utf8') ?? '{}') as { reason: string; raw: string; eventId: string; projectId: number; at: number };
        letters.push({ key: message.key?.toString('utf8') ?? '', reason: letter.reason, raw: letter.raw, eventId: letter.eventId, projectId: letter.projectId });
      },
    });
    await eventually(async () => letters.length >= 4);
    expect(letters.sort((a, b) => (a.raw < b.raw ? -1 : 1))).toEqual(
      expected.map((row) => ({ key: String(row.project_id), reason: row.reason, raw: row.raw, eventId: row.event_id, projectId: row.project_id })),
    );

    // The consumer goes on: a later valid message is stored.
    const later = hit(51);
    await producer.send({ topic: bus.topic, acks: -1, messages: [{ key: 'a', value: JSON.stringify(later) }] });
    await eventually(async () => (await committedMessages(bus, group)) === 7);
    expect(await storedIds(51)).toEqual([first.id, last.id, later.id].map(eventKeyOf));
  });
});

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AcceptedHit } from '@stat/schemas';
import { HitLog } from './hit-log.js';
import { KafkaWithLog } from './kafka-with-log.js';
import { ReconnectingKafkaPublisher, type KafkaBusConfig } from './kafka.js';

// Needs: the real Kafka broker of infra/ (KAFKA_BROKERS, default 127.0.0.1:9092). Kafka refuses
// for real: the test's topic first takes no message over 64 bytes (MESSAGE_TOO_LARGE), and takes
// hits once the test raises that limit.
const brokers = (process.env.KAFKA_BROKERS || '127.0.0.1:9092').split(',');
const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const kafkaLog: string[] = [];
const bus: KafkaBusConfig = { brokers, topic: `stat-hits-kwl-${run}`, partitions: 1, clientId: 'kafka-with-log-test', log: (entry) => kafkaLog.push(entry.message) };
const admin = new Kafka({ clientId: 'kafka-with-log-test-admin', brokers, logLevel: logLevel.NOTHING }).admin();
let dir = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'stat-kwl-'));
  await admin.connect();
  await admin.createTopics({
    waitForLeaders: true,
    topics: [{ topic: bus.topic, numPartitions: 1, replicationFactor: 1, configEntries: [{ name: 'max.message.bytes', value: '64' }] }],
  });
});

afterAll(async () => {
  await admin.deleteTopics({ topics: [bus.topic] }).catch(() => undefined);
  await admin.disconnect();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function hit(i: number): AcceptedHit {
  return { id: `00000000-0000-4000-8000-00000000000${i}`, at: Date.now(), ip: '77.88.55.88', ua: 'test', hit: { p: 1, t: 'pageview', u: `https://blog.ru/${i}`, r: '', ti: '', sw: 0, sh: 0, v: `reader-${i}` } };
}

async function messagesOnTopic(): Promise<number> {
  const offsets = await admin.fetchTopicOffsets(bus.topic);
  return offsets.reduce((sum, p) => sum + Number(p.high), 0);
}

/** The topic's messages as the aggregator reads them, parsed. */
async function readTopic(count: number): Promise<AcceptedHit[]> {
  const consumer = new Kafka({ clientId: 'kafka-with-log-test-reader', brokers, logLevel: logLevel.NOTHING }).consumer({ groupId: `kwl-reader-${run}` });
  const read: AcceptedHit[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topic: bus.topic, fromBeginning: true });
    await consumer.run({ eachMessage: async ({ message }) => void read.push(JSON.parse(message.value!.toString('utf8')) as AcceptedHit) });
    await until(() => read.length >= count, 30_000);
  } finally {
    await consumer.disconnect();
  }
  return read;
}

async function until(condition: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the collector\'s log for Kafka, against a Kafka that refuses and then takes', () => {
  it('sets a record that is no JSON aside once however often Kafka refuses its batch, and sends the rest on once Kafka takes them', async () => {
    // What a crash left: three records, the middle one whole on disk yet no JSON.
    const left = HitLog.open({ dir, segmentBytes: 1 << 20 });
    await left.log.append([JSON.stringify(hit(1)), 'not json {', JSON.stringify(hit(2))]);
    await left.log.close();

    const warnings: string[] = [];
    const publisher = KafkaWithLog.open(new ReconnectingKafkaPublisher(bus, 1), {
      dir,
      segmentBytes: 1 << 20,
      maxBytes: 1 << 24,
      maxBatch: 100,
      retryMs: 100,
      warn: (message) => warnings.push(message),
    });
    try {
      expect(publisher.pending).toBe(3);
      // Several refusals pass: the batch is tried again and again.
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      expect(await messagesOnTopic()).toBe(0);
      expect(publisher.pending).toBe(3);
      const setAside = (): string[] => readFileSync(join(dir, 'set-aside.jsonl'), 'utf8').trim().split('\n');
      expect(setAside()).toHaveLength(1);
      expect(JSON.parse(setAside()[0]!)).toMatchObject({ offset: 1, payload: 'not json {' });

      await admin.alterConfigs({
        validateOnly: false,
        resources: [{ type: 2 /* topic */, name: bus.topic, configEntries: [{ name: 'max.message.bytes', value: '1048576' }] }],
      });
      await until(() => publisher.pending === 0, 30_000);
      expect(await messagesOnTopic()).toBe(2);
      // Sent from the log, each is marked: Kafka may hold it from the send that put it there.
      expect(await readTopic(2)).toEqual([{ ...hit(1), resent: true }, { ...hit(2), resent: true }].map((h) => ({ ...h, at: expect.any(Number) })));
      expect(setAside()).toHaveLength(1);
      expect(warnings.filter((w) => w.includes('no JSON'))).toHaveLength(1);
    } finally {
      await publisher.close(Date.now());
    }
  });
});

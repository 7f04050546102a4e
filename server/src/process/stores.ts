import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createClickHouse, migrateClickHouse, type ClickHouseClient } from '@stat/storage';
import type { KafkaBusConfig } from '@stat/bus';
import { openDb, readCounterSettings, type Db, type RunningApi } from '@stat/api';
import { siteRulesFrom, type SiteRulesLoader } from '@stat/aggregator';
import type { ProcessKit } from './kit.js';

/**
 * ClickHouse, migrated: a server (CLICKHOUSE_URL) or chDB in DATA_DIR/clickhouse. A process
 * without the api probes it for /ready itself (the api probes what it uses).
 */
export async function openClickHouse(kit: ProcessKit, probed: boolean): Promise<ClickHouseClient> {
  const { config } = kit;
  let clickhouse: ClickHouseClient;
  if (config.CLICKHOUSE_URL) {
    clickhouse = createClickHouse({
      kind: 'http',
      url: config.CLICKHOUSE_URL,
      username: config.CLICKHOUSE_USER,
      password: config.CLICKHOUSE_PASSWORD,
      database: config.CLICKHOUSE_DATABASE,
    });
  } else {
    const path = chdbPathOf(kit)!;
    mkdirSync(path, { recursive: true });
    clickhouse = createClickHouse({ kind: 'chdb', path });
  }
  await migrateClickHouse(clickhouse);
  if (probed) {
    kit.probes.push({
      name: 'ClickHouse',
      check: async () => {
        const ping = await clickhouse.ping();
        if (!ping.success) throw ping.error;
      },
    });
  }
  return clickhouse;
}

/** chDB's files: under DATA_DIR, or null when ClickHouse is a server. */
function chdbPathOf({ config }: ProcessKit): string | null {
  return config.CLICKHOUSE_URL ? null : join(config.DATA_DIR, 'clickhouse');
}

const run = promisify(execFile);

/**
 * Syncs the filesystem that holds `path` to the disk (syncfs(2), through coreutils' `sync -f`):
 * chDB acknowledges an insert once its part is in the page cache, so a power cut can take the
 * last seconds of it; after this returns they survive one. Node has no syncfs of its own, and
 * fsyncing each of chDB's files would be thousands of calls.
 */
export async function syncFilesystemOf(path: string): Promise<void> {
  await run('sync', ['-f', path], { timeout: 60_000 });
}

/**
 * What the hit log calls before it lets go of stored hits: chDB's files synced (timed in
 * stat_storage_sync_seconds), or null when nothing here can sync storage (a ClickHouse server
 * keeps its own disk; a machine without `sync -f`, said once in the log). Tried once now, so that
 * a sync that can never work does not keep every hit in the log for ever.
 */
export async function storageSettler(kit: ProcessKit): Promise<(() => Promise<void>) | null> {
  const path = chdbPathOf(kit);
  if (!path) return null;
  const settle = async (): Promise<void> => {
    const stop = kit.metrics.storageSyncSeconds.startTimer();
    try {
      await syncFilesystemOf(path);
    } finally {
      stop();
    }
  };
  try {
    await settle();
    return settle;
  } catch (error) {
    kit.log(`chDB's files cannot be synced here (${String(error)}): the hit log lets go of hits once stored, and a power cut may lose the last seconds of them`);
    return null;
  }
}

/** Kafka's settings (cluster mode), or null: embedded mode has no Kafka. */
export function kafkaOf(kit: ProcessKit): KafkaBusConfig | null {
  const { config } = kit;
  if (config.KAFKA_BROKERS.length === 0) return null;
  const kafkaLog = kit.logger.child({ part: 'kafka' });
  return {
    brokers: config.KAFKA_BROKERS,
    topic: config.KAFKA_TOPIC,
    partitions: config.KAFKA_PARTITIONS,
    clientId: 'stat',
    log: ({ level, namespace, message }) => kafkaLog[level]({ namespace }, message),
  };
}

/**
 * The Postgres the aggregator reads the projects' counter settings from: the api's, when the
 * api runs in this process; its own small pool of DATABASE_URL otherwise; none without either.
 */
export async function counterSettingsDb(kit: ProcessKit, api: RunningApi | null): Promise<Db | null> {
  if (api) return api.db;
  if (!kit.config.DATABASE_URL) return null;
  const own = await openDb({ kind: 'postgres', url: kit.config.DATABASE_URL, max: 2 });
  kit.closers.push(() => own.close());
  // Every batch reads the projects' counter settings from it.
  kit.probes.push({ name: 'Postgres', check: () => own.query('SELECT 1') });
  return own;
}

/** The aggregator's reader of counter settings, from the api's Postgres. */
export function counterSettingsLoader(db: Db): SiteRulesLoader {
  return async (projects) => {
    const settings = await readCounterSettings(db, projects);
    return new Map([...settings].map(([id, s]) => [id, siteRulesFrom(s)]));
  };
}

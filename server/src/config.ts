import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { LOG_LEVELS } from '@stat/telemetry';

/** The parts one process can run; embedded mode runs them all. */
const ROLES = ['collector', 'aggregator', 'api'] as const;

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const port = z.coerce.number().int().min(0).max(65_535);
const positive = z.coerce.number().int().min(1);
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Every environment variable the service reads, with its default. This is the only place
 * that reads process.env; the README's configuration table mirrors it.
 */
const envSchema = z.object({
  ROLES: z
    .string()
    .default('collector,aggregator,api')
    .transform((s) => s.split(',').map((r) => r.trim()).filter(Boolean))
    .pipe(z.array(z.enum(ROLES)).min(1)),
  HOST: z.string().default('127.0.0.1'),
  API_PORT: port.default(8080),
  COLLECTOR_PORT: port.default(8081),
  COLLECTOR_COMPAT_PORT: port.optional(),
  HEALTH_PORT: port.default(8082),
  API_PREFIX: z.string().regex(/^[a-z0-9_-]+$/i).default('top100'),
  DATA_DIR: z.string().default(resolve(repoRoot, 'data')),
  CLICKHOUSE_URL: z.url().optional(),
  CLICKHOUSE_USER: z.string().default('default'),
  CLICKHOUSE_PASSWORD: z.string().default(''),
  CLICKHOUSE_DATABASE: z.string().default('default'),
  KAFKA_BROKERS: z
    .string()
    .optional()
    .transform((s) => (s ? s.split(',').map((b) => b.trim()).filter(Boolean) : [])),
  KAFKA_TOPIC: z.string().default('stat-hits'),
  KAFKA_PARTITIONS: positive.default(6),
  KAFKA_GROUP: z.string().default('stat-aggregator'),
  COLLECTOR_BUFFER: positive.default(200_000),
  COLLECTOR_BATCH: positive.default(2_000),
  COLLECTOR_FLUSH_MS: positive.default(50),
  HITLOG_SEGMENT_BYTES: positive.min(4096).default(16 * 1024 * 1024),
  HITLOG_MAX_BYTES: positive.default(1024 * 1024 * 1024),
  HITLOG_RELEASE_MS: positive.max(600_000).default(5_000),
  STOP_DRAIN_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  TRUST_PROXY: bool.default(false),
  DEMO_SEED: bool.default(true),
  DEMO_DAYS: positive.max(400).default(35),
  DEMO_VISITS_PER_DAY: positive.max(200_000).default(5_000),
  DEMO_SEED_WAIT: bool.default(false),
  DEMO_LIVE: bool.default(true),
  DATABASE_URL: z.url().optional(),
  REDIS_URL: z.url().optional(),
  API_PUBLIC_URL: z.url().optional(),
  COLLECTOR_PUBLIC_URL: z.url().optional(),
  COOKIE_SECURE: bool.default(false),
  SESSION_TTL_S: positive.max(86_400).default(900),
  REFRESH_TTL_S: positive.max(400 * 86_400).default(30 * 86_400),
  REGISTRATION_OPEN: bool.default(true),
  REPORT_REQUESTS_PER_MINUTE: positive.default(600),
  GOAL_CREATIONS_PER_MINUTE: positive.max(10_000).default(10),
  REPORT_MAX_MEMORY_BYTES: z.coerce.number().int().min(0).default(0),
  REPORT_MAX_ROWS_TO_READ: z.coerce.number().int().min(0).default(0),
  REPORT_SAMPLE_MIN_EVENTS: z.coerce.number().int().min(0).default(500_000),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
});

type Env = z.infer<typeof envSchema>;

export interface Config extends Env {
  webDir: string;
  snippetDir: string;
  /** API_PUBLIC_URL, or the api's own address */
  apiPublicUrl: string;
  /** COLLECTOR_PUBLIC_URL, or the collector's own address */
  collectorPublicUrl: string;
}

/** Reads and checks the environment; throws one error that lists every bad key. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means "not set", as in shell scripts that write KEY= to clear one.
  const parsed = envSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`bad configuration:\n${lines.join('\n')}`);
  }
  const config = parsed.data;
  const roles = new Set(config.ROLES);
  if (config.KAFKA_BROKERS.length === 0 && roles.has('collector') !== roles.has('aggregator')) {
    throw new Error('bad configuration:\n  KAFKA_BROKERS: required when the collector and the aggregator run in different processes');
  }
  if (config.HITLOG_MAX_BYTES < 2 * config.HITLOG_SEGMENT_BYTES) {
    // The active segment is never removed: a limit it alone can reach would refuse hits for good.
    throw new Error(`bad configuration:\n  HITLOG_MAX_BYTES: at least twice HITLOG_SEGMENT_BYTES (${2 * config.HITLOG_SEGMENT_BYTES})`);
  }
  return {
    ...config,
    webDir: resolve(repoRoot, 'web/dist'),
    snippetDir: resolve(repoRoot, 'counter-snippet/dist'),
    apiPublicUrl: config.API_PUBLIC_URL ?? `http://${config.HOST}:${config.API_PORT}`,
    collectorPublicUrl: config.COLLECTOR_PUBLIC_URL ?? `http://${config.HOST}:${config.COLLECTOR_PORT}`,
  };
}

import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { ClickHouseClient } from '@clickhouse/client';
import { AppModule } from './app.module.js';
import { ApiErrorFilter } from './http/field-errors.js';
import { PageFetcher } from './net/safe-fetch.js';
import { registerStatic, type StaticConfig } from './static.js';
import type { Db, DbTarget } from './db/db.js';
import { openDb } from './db/open.js';
import { migratePostgres } from './db/migrate.js';
import { MemoryKv, type Kv } from './kv/kv.js';
import { PgKv } from './kv/pg-kv.js';
import { RedisKv } from './kv/redis-kv.js';
import type { ApiSettings } from './tokens.js';
import type { HealthReport } from '@stat/schemas';

export interface ApiConfig extends Omit<StaticConfig, 'apiPrefix'> {
  host: string;
  port: number;
  /** The gateway prefix of every call, without slashes (default top100). */
  prefix: string;
  /** Postgres: PGlite in a data directory (embedded), or a server (cluster). */
  postgres: DbTarget;
  /** Redis for sessions and rate limits shared by several api processes; unset in embedded mode. */
  redisUrl?: string | undefined;
  /** Prefix of this api's Redis keys (default `stat:`). */
  redisPrefix?: string | undefined;
  /** Where browsers reach the api and the collector (the counter snippet names them). */
  publicUrl: string;
  collectorPublicUrl: string;
  cookieSecure?: boolean;
  sessionTtlS?: number;
  refreshTtlS?: number;
  registrationOpen?: boolean;
  /** Take the client address (rate limits) from X-Forwarded-For. */
  trustProxy?: boolean;
  /** Recompute rating positions after start and daily (default true). */
  ratingSchedule?: boolean;
  /** The outbound fetcher (default: system DNS, public addresses only); tests give their own resolver. */
  fetcher?: PageFetcher;
  /** The process's health for GET /health (outside the prefix); by default just `ok`. */
  health?: () => HealthReport;
}

export interface RunningApi {
  url: string;
  /** The api's database, for the composition root and tests. */
  db: Db;
  close(): Promise<void>;
}

/** Largest request body the api reads; report requests are a few hundred bytes. */
const BODY_LIMIT = 64 * 1024;

/**
 * Starts the api with the web app and the snippet on one port: opens and migrates Postgres,
 * opens the shared stores (Redis, or Postgres and memory in the one embedded process).
 */
export async function startApi(config: ApiConfig, clickhouse: ClickHouseClient): Promise<RunningApi> {
  const db = await openDb(config.postgres);
  const opened: { close(): Promise<void> }[] = [db];
  try {
    await migratePostgres(db);
    let sessions: Kv;
    let limits: Kv;
    if (config.redisUrl) {
      const redis = await RedisKv.open(config.redisUrl, config.redisPrefix);
      opened.unshift(redis);
      sessions = limits = redis;
    } else {
      sessions = new PgKv(db);
      limits = new MemoryKv();
      opened.unshift(sessions, limits);
    }
    const settings: ApiSettings = {
      prefix: config.prefix,
      publicUrl: config.publicUrl.replace(/\/+$/, ''),
      collectorPublicUrl: config.collectorPublicUrl.replace(/\/+$/, ''),
      cookieSecure: config.cookieSecure ?? false,
      sessionTtlS: config.sessionTtlS ?? 900,
      refreshTtlS: config.refreshTtlS ?? 30 * 86_400,
      registrationOpen: config.registrationOpen ?? true,
      ratingSchedule: config.ratingSchedule ?? true,
    };
    const app = await NestFactory.create<NestFastifyApplication>(
      AppModule.forRoot({ clickhouse, db, sessions, limits, settings, fetcher: config.fetcher ?? new PageFetcher() }),
      new FastifyAdapter({ bodyLimit: BODY_LIMIT, trustProxy: config.trustProxy ?? false }),
      { logger: ['error', 'warn'] },
    );
    app.setGlobalPrefix(config.prefix);
    app.useGlobalFilters(new ApiErrorFilter());
    const fastify = app.getHttpAdapter().getInstance();
    const health = config.health ?? ((): HealthReport => ({ status: 'ok', reasons: [], unstored: 0, oldest_unstored_ms: null }));
    fastify.get('/health', async (_req, reply) => reply.header('Cache-Control', 'no-store').send(health()));
    await registerStatic(fastify, { ...config, apiPrefix: config.prefix });
    await app.listen(config.port, config.host);
    const address = app.getHttpServer().address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    return {
      url: `http://${config.host}:${port}`,
      db,
      close: async () => {
        await app.close();
        for (const store of opened) await store.close();
      },
    };
  } catch (error) {
    for (const store of opened) await store.close().catch(() => undefined);
    throw error;
  }
}

import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { ClickHouseClient } from '@stat/storage';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppModule } from './app.module.js';
import { ApiErrorFilter } from './http/field-errors.js';
import { guardedJsonParser, registerInputGuard } from './http/input-guard.js';
import { registerReportLimit, registerSecurityHeaders } from './http/security.js';
import { PageFetcher } from './net/safe-fetch.js';
import { registerStatic, type StaticConfig } from './static.js';
import { serveApiDocument } from './openapi/document.js';
import type { Db, DbTarget } from './db/db.js';
import { openDb } from './db/open.js';
import { migratePostgres } from './db/migrate.js';
import { MemoryKv, type Kv } from './kv/kv.js';
import { PgKv } from './kv/pg-kv.js';
import { RedisKv } from './kv/redis-kv.js';
import type { ApiSettings } from './tokens.js';
import { GOAL_CREATIONS_PER_MINUTE, type HealthReport, type ReadinessReport } from '@stat/schemas';
import type { DemoState } from '@stat/schemas/period';
import { createLogger, createMetrics, readinessFrom, type Logger, type Metrics, type Probe } from '@stat/telemetry';
import { NestLogs, registerOperations, requestContext, requestIdOf } from './http/operations.js';

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
  /** Whether the demo project is still being filled (GET demo/state); by default never. */
  demoState?: () => DemoState;
  /** The process's health for GET /health (outside the prefix); by default just `ok`. */
  health?: () => HealthReport;
  /** Report calls (`/api/report/…`) one client address may make per minute (default 600). */
  reportRequestsPerMinute?: number;
  /** Goals one user may create a minute (default GOAL_CREATIONS_PER_MINUTE of schemas, 10). */
  goalCreationsPerMinute?: number;
  /** The api's clock, ms since the epoch (default Date.now); tests fix the time of day. */
  clock?: () => number;
  /** Memory one report query may use, bytes (default 0: ClickHouse's own limit); more answers 507. */
  reportMaxMemoryBytes?: number;
  /** Rows one report query may read (default 0: no limit); more answers 507. */
  reportMaxRowsToRead?: number;
  /** A period of at most this many events is read whole whatever sample was asked (default 0: every sample is read as asked). */
  reportSampleMinEvents?: number;
  /** The process's metrics (default: the api's own registry). */
  metrics?: Metrics;
  /** The process's logger (default: warnings and errors as JSON lines on stdout). */
  logger?: Logger;
  /**
   * GET /ready's answer (default: the health and the api's own probes, see RunningApi.probes);
   * a process running more parts gives its own, with their probes added.
   */
  ready?: () => Promise<ReadinessReport>;
}

/** A route as the router registered it. */
export interface RouteEntry {
  method: string;
  /** the path pattern, e.g. /top100/api/v1.0/project/:projectId */
  url: string;
}

export interface RunningApi {
  url: string;
  /** The api's database, for the composition root and tests. */
  db: Db;
  /** Every route of the api (its controllers, the web app and the snippet), as registered. */
  routes: readonly RouteEntry[];
  /** The servers the api needs, for readiness: ClickHouse, Postgres, and Redis when configured. */
  probes: readonly Probe[];
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
    const probes: Probe[] = [
      {
        name: 'ClickHouse',
        check: async () => {
          const ping = await clickhouse.ping();
          if (!ping.success) throw ping.error;
        },
      },
      { name: 'Postgres', check: () => db.query('SELECT 1') },
    ];
    if (config.redisUrl) {
      const redis = await RedisKv.open(config.redisUrl, config.redisPrefix);
      opened.unshift(redis);
      probes.push({ name: 'Redis', check: () => redis.ping() });
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
      reportRequestsPerMinute: config.reportRequestsPerMinute ?? 600,
      goalCreationsPerMinute: config.goalCreationsPerMinute ?? GOAL_CREATIONS_PER_MINUTE,
      reportQuerySettings: { max_memory_usage: config.reportMaxMemoryBytes ?? 0, max_rows_to_read: config.reportMaxRowsToRead ?? 0 },
      reportSampleMinEvents: config.reportSampleMinEvents ?? 0,
    };
    const clock = config.clock ?? Date.now;
    const metrics = config.metrics ?? createMetrics();
    const logger = config.logger ?? createLogger({ role: 'api', level: 'warn' });
    const health = config.health ?? ((): HealthReport => ({ status: 'ok', reasons: [], unstored: 0, oldest_unstored_ms: null }));
    const errors = new ApiErrorFilter();
    const app = await NestFactory.create<NestFastifyApplication>(
      AppModule.forRoot({ clickhouse, db, sessions, limits, settings, fetcher: config.fetcher ?? new PageFetcher(), clock, demoState: config.demoState ?? (() => ({ filling: false })), metrics, logger, requestContext }),
      new FastifyAdapter({
        bodyLimit: BODY_LIMIT,
        trustProxy: config.trustProxy ?? false,
        // The client's x-request-id when sane (it is answered in x-request-id, see registerSecurityHeaders).
        genReqId: requestIdOf,
        // The router's own refusals (a path that is not valid percent-encoded UTF-8, a path
        // parameter over 100 characters) in the one error shape too.
        frameworkErrors: (error: Error, request: FastifyRequest, reply: FastifyReply) => errors.answer(error, request, reply),
      }),
      { logger: new NestLogs(logger) },
    );
    app.setGlobalPrefix(config.prefix);
    app.useGlobalFilters(errors);
    const fastify = app.getHttpAdapter().getInstance();
    // Before any route is registered (app.listen registers the controllers' routes).
    const routes: RouteEntry[] = [];
    fastify.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push({ method, url: route.url });
    });
    app.useBodyParser('application/json', { bodyLimit: BODY_LIMIT }, guardedJsonParser(fastify));
    registerOperations(fastify, { metrics, logger, ready: config.ready ?? readinessFrom(health, probes) });
    registerSecurityHeaders(fastify, new Set([`/${config.prefix}/api/v1.0/project/:projectId/widget.svg`]));
    registerReportLimit(fastify, config.prefix, settings.reportRequestsPerMinute, limits);
    registerInputGuard(fastify);
    fastify.get('/health', async (_req, reply) => reply.header('Cache-Control', 'no-store').send(health()));
    await registerStatic(fastify, { ...config, apiPrefix: config.prefix });
    serveApiDocument(app, config.prefix);
    await app.listen(config.port, config.host);
    const address = app.getHttpServer().address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    return {
      url: `http://${config.host}:${port}`,
      db,
      routes,
      probes,
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

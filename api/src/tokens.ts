import type { DemoState } from '@stat/schemas/period';
/** Injection tokens of what the composition root hands the api. */
export const DB = Symbol('Db');
export const CLICKHOUSE = Symbol('ClickHouseClient');
/** Login sessions: Redis, or Postgres in embedded mode. */
export const SESSION_KV = Symbol('SessionKv');
/** Rate-limit counters and captcha challenges: Redis, or this process's memory in embedded mode. */
export const LIMIT_KV = Symbol('LimitKv');
export const SETTINGS = Symbol('ApiSettings');
/** The clock (ms since the epoch): Date.now, or a test's. */
export const CLOCK = Symbol('Clock');
export type Clock = () => number;
/** Whether the demo project's traffic is still being generated (the embedded server's seed). */
export const DEMO_STATE = Symbol('DemoState');
export type DemoStateOf = () => DemoState;
/** The outbound page fetcher (fetch_metadata, favicons, verify_ownership). */
export const FETCHER = Symbol('PageFetcher');

/** The api's own settings, from the composition root's configuration. */
export interface ApiSettings {
  /** The gateway prefix without slashes, e.g. top100. */
  prefix: string;
  /** Where browsers reach this api, e.g. https://stat.example.com (no trailing slash). */
  publicUrl: string;
  /** Where browsers reach the collector. */
  collectorPublicUrl: string;
  /** Adds Secure to the cookies (serve over https). */
  cookieSecure: boolean;
  /** Lifetime of a session token, seconds. */
  sessionTtlS: number;
  /** Lifetime of a refresh token, seconds. */
  refreshTtlS: number;
  /** Whether anyone may register; false leaves accounts to the administrator. */
  registrationOpen: boolean;
  /** Recompute rating positions after start and daily (off in tests, which call it). */
  ratingSchedule: boolean;
  /** Report calls (`/api/report/…`) one client address may make per minute. */
  reportRequestsPerMinute: number;
  /** Goals one user may create a minute; more answer 400 «Rate limit exceeded». */
  goalCreationsPerMinute: number;
  /** ClickHouse settings of every report query: the memory and scan limits (0: none) */
  reportQuerySettings: { max_memory_usage: number; max_rows_to_read: number };
  /** A period of at most this many events is read whole whatever sample was asked (0: off; engine/sampling.ts). */
  reportSampleMinEvents: number;
}

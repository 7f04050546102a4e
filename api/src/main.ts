import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { ClickHouseClient } from '@clickhouse/client';
import { AppModule } from './app.module.js';
import { ErrorFilter } from './common/error.filter.js';
import { registerStatic, type StaticConfig } from './static.js';

export interface ApiConfig extends Omit<StaticConfig, 'apiPrefix'> {
  host: string;
  port: number;
  /** The gateway prefix of every call, without slashes (default top100). */
  prefix: string;
}

export interface RunningApi {
  url: string;
  close(): Promise<void>;
}

/** Largest request body the api reads; report requests are a few hundred bytes. */
const BODY_LIMIT = 64 * 1024;

/** Starts the api with the web app and the snippet on one port. */
export async function startApi(config: ApiConfig, clickhouse: ClickHouseClient): Promise<RunningApi> {
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(clickhouse),
    new FastifyAdapter({ bodyLimit: BODY_LIMIT }),
    { logger: ['error', 'warn'] },
  );
  app.setGlobalPrefix(config.prefix);
  app.useGlobalFilters(new ErrorFilter());
  await registerStatic(app.getHttpAdapter().getInstance(), { ...config, apiPrefix: config.prefix });
  await app.listen(config.port, config.host);
  return { url: `http://${config.host}:${config.port}`, close: () => app.close() };
}

import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { LoggerService } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { ReadinessReport } from '@stat/schemas';
import { opsAnswer, type Logger, type Metrics } from '@stat/telemetry';

/** What the api knows of the request being served, wherever its work goes (the report engine). */
export interface RequestContext {
  /** the request id: the client's x-request-id when sane, else a new UUID */
  readonly requestId: string;
  /** the report the request reads (the catalogue's name), once the planner knows it */
  report?: string;
}

const context = new AsyncLocalStorage<RequestContext>();

/** The request being served, or undefined outside one (the rating's schedule). */
export function requestContext(): RequestContext | undefined {
  return context.getStore();
}

/** A request id a client may choose: short, and nothing a log line or a header could be bent by. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** Fastify's genReqId: the client's x-request-id when sane, else a new UUID. */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

/** Routes the router did not match, one label value for all (never the raw url). */
const UNMATCHED = 'unmatched';

/**
 * The api's operations: GET /live, /ready and /metrics outside the prefix (like /health), the
 * HTTP metrics of every answer by route pattern, a log line per answer with its request id, and
 * the request context (its id) around the handler.
 */
export function registerOperations(fastify: FastifyInstance, ops: { metrics: Metrics; logger: Logger; ready: () => Promise<ReadinessReport> }): void {
  const { metrics, logger } = ops;
  const store = new WeakMap<object, RequestContext>();
  fastify.addHook('onRequest', (request, _reply, done) => {
    const ctx: RequestContext = { requestId: request.id };
    store.set(request, ctx);
    context.run(ctx, done);
  });
  // Reading the body runs on the socket's events, outside the context: enter it again before the handler.
  fastify.addHook('preHandler', (request, _reply, done) => {
    const ctx = store.get(request);
    if (ctx) context.run(ctx, done);
    else done();
  });
  fastify.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? UNMATCHED;
    const seconds = reply.elapsedTime / 1000;
    metrics.httpRequests.inc({ route, method: request.method, status: String(reply.statusCode) });
    metrics.httpRequestSeconds.observe({ route, method: request.method }, seconds);
    logger.info({ request_id: request.id, method: request.method, route, status: reply.statusCode, duration_ms: Math.round(reply.elapsedTime * 10) / 10 }, 'request');
  });
  for (const path of ['/live', '/ready', '/metrics'] as const) {
    fastify.get(path, async (_request, reply) => {
      const answer = await opsAnswer(path, { metrics, ready: ops.ready });
      if (answer === null) return reply.code(404).send();
      return reply.code(answer.status).header('content-type', answer.contentType).header('cache-control', 'no-store').send(answer.body);
    });
  }
}

/**
 * Nest's own log lines through the process's logger: its faults (the error filter's 500s) as
 * errors, its start-up chatter (every route mapped) at debug. Nest passes the context (the
 * Logger's name) last, after a stack when there is one.
 */
export class NestLogs implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    this.logger.debug(fields(params), String(message));
  }
  error(message: unknown, ...params: unknown[]): void {
    this.logger.error(fields(params), String(message));
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.logger.warn(fields(params), String(message));
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.logger.debug(fields(params), String(message));
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.logger.trace(fields(params), String(message));
  }
}

function fields(params: readonly unknown[]): { context?: string; trace?: string } {
  const strings = params.filter((p): p is string => typeof p === 'string');
  if (strings.length === 0) return {};
  const context = strings[strings.length - 1]!;
  return strings.length > 1 ? { context, trace: strings[0]! } : { context };
}

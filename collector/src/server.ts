import { App, us_listen_socket_close, us_socket_local_port, type HttpRequest, type HttpResponse, type us_listen_socket } from 'uws-pack';
import { healthOf, MAX_HIT_BYTES, type HealthReport } from '@stat/schemas';
import { createMetrics, opsAnswer, readinessFrom, type OpsEndpoints } from '@stat/telemetry';
import type { RequestFacts } from './accept.js';
import { HitAnswers, type Answer, type Reply } from './answers.js';
import { startCompatServer } from './compat.js';
import type { HitBuffer } from './buffer.js';

export interface CollectorConfig {
  host: string;
  port: number;
  /** Take the client address from X-Forwarded-For (behind a trusted proxy). */
  trustProxy: boolean;
  /** The process's health for GET /health; by default the buffer's own (a collector alone). */
  health?: () => HealthReport;
  /** A second port, served by Node's HTTP server, for proxies that speak HTTP/1.0 (see compat.ts). */
  compatPort?: number | undefined;
  /**
   * The process's metrics and readiness for GET /metrics and GET /ready; by default metrics of
   * its own and the buffer's health (a collector alone, tests).
   */
  ops?: OpsEndpoints;
}

export interface RunningCollector {
  /** The port it listens on: the configured one, or the one the system chose for port 0. */
  port: number;
  /** The compat port it listens on, when one was asked for. */
  compatPort: number | null;
  /** Stops listening; hits already taken are answered once their group is written (the caller drains the buffer). */
  close(): void;
}

/** Starts the collector's HTTP server (uWebSockets.js, HTTP/1.1); every valid hit goes into the buffer. */
export async function startCollector(config: CollectorConfig, buffer: HitBuffer): Promise<RunningCollector> {
  const health = config.health ?? (() => healthOf({ buffer }));
  const ops: OpsEndpoints = config.ops ?? { metrics: createMetrics(), ready: readinessFrom(health, []) };
  const answers = new HitAnswers(buffer, health, ops.metrics);
  ops.metrics.track('collectorBuffer', () => buffer.size);
  /** GET /live, /ready and /metrics: answered after an await, so aborts are watched and the write corked. */
  const operations = (path: string) => (res: HttpResponse) => {
    let aborted = false;
    res.onAborted(() => {
      aborted = true;
    });
    void opsAnswer(path, ops).then(
      (answer) => {
        if (aborted || answer === null) return;
        res.cork(() => send(res, { status: STATUS_LINES[answer.status] ?? String(answer.status), headers: [['Content-Type', answer.contentType], ['Cache-Control', 'no-store']], body: answer.body }));
      },
      (error: unknown) => {
        if (!aborted) res.cork(() => send(res, { status: '500 Internal Server Error', headers: [], body: String(error) }));
      },
    );
  };
  const facts = (res: HttpResponse, req: HttpRequest): RequestFacts => ({
    ip: clientAddress(res, req, config.trustProxy),
    userAgent: req.getHeader('user-agent'),
    now: Date.now(),
  });

  const app = App()
    .get('/hit', (res, req) => {
      const reply = later(res);
      answers.pixel(req.getQuery() ?? '', facts(res, req), reply);
    })
    .post('/hit', (res, req) => {
      const arrived = facts(res, req);
      const refused = answers.beforeBody(contentLengths(req));
      if (refused) {
        send(res, refused);
        return;
      }
      const reply = later(res);
      readBody(res, (body) => (body === null ? reply(answers.tooLarge()) : answers.beacon(body, arrived, reply)));
    })
    .options('/hit', (res) => send(res, answers.preflight()))
    .get('/health', (res) => send(res, answers.healthReport()))
    .get('/live', operations('/live'))
    .get('/ready', operations('/ready'))
    .get('/metrics', operations('/metrics'))
    .any('/*', (res) => send(res, answers.notFound()));

  const compat = config.compatPort === undefined ? null : await startCompatServer({ ...config, port: config.compatPort }, answers, ops);
  const token = await new Promise<us_listen_socket>((resolve, reject) => {
    app.listen(config.host, config.port, (listening: us_listen_socket | false) => {
      if (listening) resolve(listening);
      else reject(new Error(`collector could not listen on ${config.host}:${config.port}`));
    });
  }).catch((error: unknown) => {
    compat?.close();
    throw error;
  });
  return {
    port: us_socket_local_port(token),
    compatPort: compat?.port ?? null,
    close: () => {
      us_listen_socket_close(token);
      compat?.close();
    },
  };
}

/**
 * A reply that may come after the handler returned (once the hit's group is durable): the abort
 * is watched from the start, as uWebSockets.js requires, a client gone meanwhile costs nothing,
 * and a late write is corked.
 */
function later(res: HttpResponse): Reply {
  let aborted = false;
  let answered = false;
  res.onAborted(() => {
    aborted = true;
  });
  return (answer) => {
    if (aborted || answered) return;
    answered = true;
    res.cork(() => send(res, answer));
  };
}

const STATUS_LINES: Readonly<Record<number, string>> = { 200: '200 OK', 503: '503 Service Unavailable' };

function send(res: HttpResponse, answer: Answer): void {
  res.writeStatus(answer.status);
  for (const [name, value] of answer.headers) res.writeHeader(name, value);
  if (answer.body === undefined) res.endWithoutBody();
  else res.end(answer.body);
}

/** The values of every Content-Length header of the request (uWebSockets.js's getHeader gives the first only). */
function contentLengths(req: HttpRequest): string[] {
  const values: string[] = [];
  req.forEach((key, value) => {
    if (key === 'content-length') values.push(value);
  });
  return values;
}

/**
 * Collects a request body up to MAX_HIT_BYTES; calls back with null when it is larger. The
 * caller has registered onAborted (see later): an aborted request gets no more data.
 */
function readBody(res: HttpResponse, done: (body: Buffer | null) => void): void {
  let size = 0;
  const chunks: Buffer[] = [];
  res.onData((chunk, isLast) => {
    if (size < 0) return;
    size += chunk.byteLength;
    if (size > MAX_HIT_BYTES) {
      size = -1;
      done(null);
      return;
    }
    // uWebSockets.js reuses the chunk's memory after this callback: copy it.
    chunks.push(Buffer.from(chunk.slice(0)));
    if (isLast) done(Buffer.concat(chunks));
  });
}

function clientAddress(res: HttpResponse, req: HttpRequest, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = req.getHeader('x-forwarded-for');
    if (forwarded) return forwarded.split(',')[0]?.trim() ?? '';
  }
  return Buffer.from(res.getRemoteAddressAsText()).toString();
}

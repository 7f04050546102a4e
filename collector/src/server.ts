import { App, us_listen_socket_close, type HttpRequest, type HttpResponse, type us_listen_socket } from 'uws-pack';
import { MAX_HIT_BYTES, type HealthReport } from '@stat/schemas';
import { acceptBody, acceptQuery, type Acceptance, type RequestFacts } from './accept.js';
import type { HitBuffer } from './buffer.js';

export interface CollectorConfig {
  host: string;
  port: number;
  /** Take the client address from X-Forwarded-For (behind a trusted proxy). */
  trustProxy: boolean;
  /** The process's health for GET /health; by default the buffer's own. */
  health?: () => HealthReport;
}

export interface RunningCollector {
  port: number;
  /** Stops listening; hits already accepted stay in the buffer for the caller to drain. */
  close(): void;
}

/** A transparent 1×1 GIF, the answer to a pixel hit. */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

const CORS = 'Access-Control-Allow-Origin';

/** Starts the collector's HTTP server; every valid hit goes into the buffer. */
export function startCollector(config: CollectorConfig, buffer: HitBuffer): Promise<RunningCollector> {
  const facts = (res: HttpResponse, req: HttpRequest): RequestFacts => ({
    ip: clientAddress(res, req, config.trustProxy),
    userAgent: req.getHeader('user-agent'),
    now: Date.now(),
  });

  const answer = (res: HttpResponse, acceptance: Acceptance, pixel: boolean): void => {
    if (!acceptance.ok) {
      res.writeStatus('400 Bad Request').writeHeader(CORS, '*').end(acceptance.reason);
    } else if (!buffer.offer(acceptance.hit)) {
      res.writeStatus('503 Service Unavailable').writeHeader(CORS, '*').writeHeader('Retry-After', '5').end('busy');
    } else if (pixel) {
      res.writeStatus('200 OK').writeHeader('Content-Type', 'image/gif').writeHeader('Cache-Control', 'no-store').end(PIXEL);
    } else {
      res.writeStatus('204 No Content').writeHeader(CORS, '*').endWithoutBody();
    }
  };

  const app = App()
    .get('/hit', (res, req) => {
      answer(res, acceptQuery(req.getQuery() ?? '', facts(res, req)), true);
    })
    .post('/hit', (res, req) => {
      const arrived = facts(res, req);
      const lengths = contentLengths(req);
      // Two different lengths mean two parties may read two different requests (smuggling).
      if (new Set(lengths).size > 1) {
        res.writeStatus('400 Bad Request').writeHeader(CORS, '*').writeHeader('Connection', 'close').end('Content-Length: given twice with different values');
        return;
      }
      const declared = Number(lengths[0] || '0');
      if (declared > MAX_HIT_BYTES) {
        res.writeStatus('413 Payload Too Large').writeHeader(CORS, '*').end(`body over ${MAX_HIT_BYTES} bytes`);
        return;
      }
      readBody(res, (body) => {
        if (body === null) {
          res.writeStatus('413 Payload Too Large').writeHeader(CORS, '*').end(`body over ${MAX_HIT_BYTES} bytes`);
        } else if (body === INVALID_UTF8) {
          res.writeStatus('400 Bad Request').writeHeader(CORS, '*').end('body: not valid UTF-8');
        } else {
          answer(res, acceptBody(body, arrived), false);
        }
      });
    })
    .options('/hit', (res) => {
      res
        .writeStatus('204 No Content')
        .writeHeader(CORS, '*')
        .writeHeader('Access-Control-Allow-Methods', 'GET, POST')
        .writeHeader('Access-Control-Allow-Headers', 'Content-Type')
        .writeHeader('Access-Control-Max-Age', '86400')
        .endWithoutBody();
    })
    .get('/health', (res) => {
      const report = config.health ? config.health() : bufferHealth(buffer);
      res.writeHeader('Content-Type', 'application/json').writeHeader('Cache-Control', 'no-store').end(JSON.stringify(report));
    })
    .any('/*', (res) => {
      res.writeStatus('404 Not Found').end('not found');
    });

  return new Promise((resolve, reject) => {
    app.listen(config.host, config.port, (token: us_listen_socket | false) => {
      if (!token) {
        reject(new Error(`collector could not listen on ${config.host}:${config.port}`));
        return;
      }
      resolve({ port: config.port, close: () => us_listen_socket_close(token) });
    });
  });
}

/** Marks a body that is not UTF-8: refused, never decoded into replacement characters. */
const INVALID_UTF8 = Symbol('invalid UTF-8');
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The values of every Content-Length header of the request (uWebSockets.js's getHeader gives the first only). */
function contentLengths(req: HttpRequest): string[] {
  const values: string[] = [];
  req.forEach((key, value) => {
    if (key === 'content-length') values.push(value.trim());
  });
  return values;
}

/** The buffer's own health, for a collector run on its own (tests). */
function bufferHealth(buffer: HitBuffer): HealthReport {
  const oldest = buffer.oldestAt;
  const reasons = buffer.error ? [`the bus refuses hits: ${String(buffer.error)}`] : [];
  return { status: reasons.length > 0 ? 'degraded' : 'ok', reasons, unstored: buffer.size, oldest_unstored_ms: oldest === null ? null : Date.now() - oldest };
}

/**
 * Collects a request body up to MAX_HIT_BYTES; calls back with null when it is larger, and
 * INVALID_UTF8 when it is not UTF-8. onAborted is registered first, as uWebSockets.js
 * requires before any asynchronous step.
 */
function readBody(res: HttpResponse, done: (body: string | null | typeof INVALID_UTF8) => void): void {
  let aborted = false;
  let size = 0;
  const chunks: Buffer[] = [];
  res.onAborted(() => {
    aborted = true;
  });
  res.onData((chunk, isLast) => {
    if (aborted || size < 0) return;
    size += chunk.byteLength;
    if (size > MAX_HIT_BYTES) {
      size = -1;
      res.cork(() => done(null));
      return;
    }
    // uWebSockets.js reuses the chunk's memory after this callback: copy it.
    chunks.push(Buffer.from(chunk.slice(0)));
    if (isLast) res.cork(() => done(decodeUtf8(Buffer.concat(chunks))));
  });
}

function clientAddress(res: HttpResponse, req: HttpRequest, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = req.getHeader('x-forwarded-for');
    if (forwarded) return forwarded.split(',')[0]?.trim() ?? '';
  }
  return Buffer.from(res.getRemoteAddressAsText()).toString();
}

function decodeUtf8(bytes: Buffer): string | typeof INVALID_UTF8 {
  try {
    return utf8.decode(bytes);
  } catch {
    return INVALID_UTF8;
  }
}

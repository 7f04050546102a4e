import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { MAX_HIT_BYTES } from '@stat/schemas';
import type { RequestFacts } from './accept.js';
import type { Answer, HitAnswers } from './answers.js';
import { opsAnswer, type OpsEndpoints } from '@stat/telemetry';

/**
 * The collector's second door, for proxies that speak HTTP/1.0 (nginx's default
 * `proxy_http_version`), which uWebSockets.js refuses with 505 in its parser. Node's own HTTP
 * server, slower than the main port but answering the same: the same validation, the same
 * buffer. Off unless COLLECTOR_COMPAT_PORT is set; the faster way is `proxy_http_version 1.1`.
 */
export function startCompatServer(
  config: { host: string; port: number; trustProxy: boolean },
  answers: HitAnswers,
  ops: OpsEndpoints,
): Promise<{ port: number; close(): void }> {
  const facts = (req: IncomingMessage): RequestFacts => ({
    ip: clientAddress(req, config.trustProxy),
    userAgent: req.headers['user-agent'] ?? '',
    now: Date.now(),
  });
  const server = createServer({ maxHeaderSize: 4096 }, (req, res) => {
    const url = req.url ?? '/';
    const query = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
    const path = url.split('?')[0];
    if (path === '/hit' && req.method === 'GET') return answers.pixel(query, facts(req), (answer) => send(res, answer));
    if (path === '/hit' && req.method === 'OPTIONS') return send(res, answers.preflight());
    if (path === '/health' && req.method === 'GET') return send(res, answers.healthReport());
    if ((path === '/live' || path === '/ready' || path === '/metrics') && req.method === 'GET') {
      void opsAnswer(path, ops).then(
        (answer) => answer && send(res, { status: `${answer.status} ${answer.status === 200 ? 'OK' : 'Service Unavailable'}`, headers: [['Content-Type', answer.contentType], ['Cache-Control', 'no-store']], body: answer.body }),
        (error: unknown) => send(res, { status: '500 Internal Server Error', headers: [], body: String(error) }),
      );
      return;
    }
    if (path !== '/hit' || req.method !== 'POST') return send(res, answers.notFound());
    const arrived = facts(req);
    // Node's parser already refuses two different Content-Length headers.
    const refused = answers.beforeBody(req.headers['content-length'] ? [req.headers['content-length']] : []);
    if (refused) return send(res, refused);
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > MAX_HIT_BYTES) {
        send(res, answers.tooLarge());
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (size <= MAX_HIT_BYTES) answers.beacon(Buffer.concat(chunks), arrived, (answer) => send(res, answer));
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      const address = server.address();
      resolve({ port: typeof address === 'object' && address ? address.port : config.port, close: () => server.close() });
    });
  });
}

function send(res: ServerResponse, answer: Answer): void {
  // Answered already (a body too large), or the client went away while its group was written.
  if (res.headersSent || res.destroyed) return;
  const space = answer.status.indexOf(' ');
  res.statusCode = Number(answer.status.slice(0, space));
  res.statusMessage = answer.status.slice(space + 1);
  for (const [name, value] of answer.headers) res.setHeader(name, value);
  res.end(answer.body);
}

function clientAddress(req: IncomingMessage, trustProxy: boolean): string {
  const forwarded = req.headers['x-forwarded-for'];
  if (trustProxy && typeof forwarded === 'string' && forwarded) return forwarded.split(',')[0]?.trim() ?? '';
  return req.socket.remoteAddress ?? '';
}

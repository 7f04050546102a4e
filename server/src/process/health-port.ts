import { createServer } from 'node:http';
import { opsAnswer } from '@stat/telemetry';
import type { ProcessKit } from './kit.js';

/**
 * A process with neither the api nor the collector (an aggregator alone) has no port of its
 * own: /health, /live, /ready and /metrics get one on HEALTH_PORT, so that every process can say how it is.
 */
export async function startHealthPort(kit: ProcessKit): Promise<void> {
  const { config } = kit;
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const answer = req.method !== 'GET' ? Promise.resolve(null) : path === '/health' ? Promise.resolve({ status: 200, contentType: 'application/json', body: JSON.stringify(kit.healthReport()) }) : opsAnswer(path, kit.ops);
    answer.then(
      (found) => {
        res.writeHead(found?.status ?? 404, { 'content-type': found?.contentType ?? 'application/json', 'cache-control': 'no-store' });
        res.end(found?.body ?? '{"error":"not found"}');
      },
      (error: unknown) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: String(error) }));
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.HEALTH_PORT, config.HOST, resolve);
  });
  kit.closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  kit.log(`health:    http://${config.HOST}:${config.HEALTH_PORT}/health (and /live, /ready, /metrics)`);
}

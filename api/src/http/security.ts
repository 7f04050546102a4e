import { HttpException, HttpStatus } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import type { Kv } from '../kv/kv.js';

/**
 * The web app's Content-Security-Policy. The built app (web/dist) is module scripts and
 * stylesheets from /stat/assets, no inline script or style element; React and uPlot set
 * styles through the CSSOM, which style-src does not govern. Favicons are data: images.
 */
export const WEB_APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Headers of every answer: no MIME sniffing, no framing (but for `frameable` routes, the
 * public widget that other sites embed), and the request id that a logged fault carries.
 */
export function registerSecurityHeaders(fastify: FastifyInstance, frameable: ReadonlySet<string>): void {
  fastify.addHook('onRequest', async (request, reply) => {
    void reply.header('x-request-id', request.id);
    void reply.header('x-content-type-options', 'nosniff');
    if (!frameable.has(request.routeOptions.url ?? '')) void reply.header('x-frame-options', 'DENY');
  });
}

export const TOO_MANY_REPORTS = 'Слишком много запросов к отчётам. Попробуйте через минуту.';

/**
 * At most `perMinute` report calls (`/{prefix}/api/report/…`) from one client address in a
 * minute (fixed windows in the shared store); the rest are answered 429 before their body is read.
 */
export function registerReportLimit(fastify: FastifyInstance, prefix: string, perMinute: number, kv: Kv): void {
  const reports = `/${prefix}/api/report/`;
  fastify.addHook('onRequest', async (request) => {
    // The matched route, not the raw url: no spelling of the path escapes the count.
    if (!request.routeOptions.url?.startsWith(reports)) return;
    const count = await kv.incr(`rl:report:${request.ip}`, 60_000);
    if (count > perMinute) throw new HttpException(TOO_MANY_REPORTS, HttpStatus.TOO_MANY_REQUESTS);
  });
}

import { MAX_HIT_BYTES, type HealthReport } from '@stat/schemas';
import type { Metrics } from '@stat/telemetry';
import { acceptBody, acceptQuery, type Acceptance, type RequestFacts } from './accept.js';
import type { HitBuffer } from './buffer.js';

/** A response as both servers write it: the uWebSockets.js one and the HTTP/1.0 one. */
export interface Answer {
  /** status line after the version, e.g. `204 No Content` */
  status: string;
  headers: readonly (readonly [string, string])[];
  body?: string | Buffer;
}

/** A transparent 1×1 GIF, the answer to a pixel hit. */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const CORS = ['Access-Control-Allow-Origin', '*'] as const;
/** A refusal's reason is plain text, never to be read as markup: it may quote what was sent. */
const PLAIN = [
  ['Content-Type', 'text/plain; charset=utf-8'],
  ['X-Content-Type-Options', 'nosniff'],
] as const;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Why the collector refused a hit, the `reason` label of stat_hits_refused_total: a hit that is
 * not valid (not JSON, a field out of its limits, a query not percent-encoded UTF-8), a body not
 * UTF-8, a body over MAX_HIT_BYTES, two different Content-Length headers, a full buffer (503),
 * a write that could not make the hit durable (503: the disk full, Kafka and the disk both refusing).
 */
const REFUSALS = ['invalid', 'not_utf8', 'too_large', 'ambiguous_length', 'busy', 'not_durable'] as const;
export type Refusal = (typeof REFUSALS)[number];

/**
 * Where an answer goes: called once, at once for a refusal, or after the hit's group was
 * written (the server then checks that the client is still there).
 */
export type Reply = (answer: Answer) => void;

/**
 * What the collector answers to each request, whichever server read it: the hit is validated
 * and offered to the buffer here, so both servers acknowledge exactly the same hits, and only
 * once they are durable.
 */
export class HitAnswers {
  constructor(
    private readonly buffer: HitBuffer,
    private readonly health: () => HealthReport,
    private readonly metrics: Metrics,
  ) {
    // Every reason from zero, so that a rate over it exists before the first refusal.
    for (const reason of REFUSALS) metrics.hitsRefused.inc({ reason }, 0);
  }

  /** GET /hit: the pixel, its hit in the query string. */
  pixel(query: string, facts: RequestFacts, reply: Reply): void {
    this.offer(acceptQuery(query, facts), true, reply);
  }

  /**
   * POST /hit before its body is read: a refusal by the headers alone, or null to read on.
   * Two different lengths mean two parties may read two different requests (smuggling).
   */
  beforeBody(contentLengths: readonly string[]): Answer | null {
    if (new Set(contentLengths.map((v) => v.trim())).size > 1) {
      return this.refused('ambiguous_length', { status: '400 Bad Request', headers: [CORS, ...PLAIN, ['Connection', 'close']], body: 'Content-Length: given twice with different values' });
    }
    if (Number(contentLengths[0] || '0') > MAX_HIT_BYTES) return this.tooLarge();
    return null;
  }

  /** POST /hit: the beacon, its hit in the body (bytes as they came, refused unless UTF-8). */
  beacon(bytes: Buffer, facts: RequestFacts, reply: Reply): void {
    if (bytes.byteLength > MAX_HIT_BYTES) return reply(this.tooLarge());
    let body: string;
    try {
      body = utf8.decode(bytes);
    } catch {
      return reply(this.refused('not_utf8', { status: '400 Bad Request', headers: [CORS, ...PLAIN], body: 'body: not valid UTF-8' }));
    }
    this.offer(acceptBody(body, facts), false, reply);
  }

  tooLarge(): Answer {
    return this.refused('too_large', { status: '413 Payload Too Large', headers: [CORS, ...PLAIN], body: `body over ${MAX_HIT_BYTES} bytes` });
  }

  preflight(): Answer {
    return {
      status: '204 No Content',
      headers: [CORS, ['Access-Control-Allow-Methods', 'GET, POST'], ['Access-Control-Allow-Headers', 'Content-Type'], ['Access-Control-Max-Age', '86400']],
    };
  }

  healthReport(): Answer {
    return { status: '200 OK', headers: [['Content-Type', 'application/json'], ['Cache-Control', 'no-store']], body: JSON.stringify(this.health()) };
  }

  notFound(): Answer {
    return { status: '404 Not Found', headers: [...PLAIN], body: 'not found' };
  }

  /** Validates the hit and offers it to the next group; it is answered when the group's write settles. */
  private offer(acceptance: Acceptance, pixel: boolean, reply: Reply): void {
    if (!acceptance.ok) return reply(this.refused('invalid', { status: '400 Bad Request', headers: [CORS, ...PLAIN], body: acceptance.reason }));
    const taken = this.buffer.offer(acceptance.hit, (durable) => {
      if (!durable) return reply(this.refused('not_durable', { status: '503 Service Unavailable', headers: [CORS, ...PLAIN, ['Retry-After', '5']], body: 'not stored: try again' }));
      this.metrics.hitsAccepted.inc();
      if (pixel) reply({ status: '200 OK', headers: [['Content-Type', 'image/gif'], ['Cache-Control', 'no-store']], body: PIXEL });
      else reply({ status: '204 No Content', headers: [CORS] });
    });
    if (!taken) reply(this.refused('busy', { status: '503 Service Unavailable', headers: [CORS, ...PLAIN, ['Retry-After', '5']], body: 'busy' }));
  }

  private refused(reason: Refusal, answer: Answer): Answer {
    this.metrics.hitsRefused.inc({ reason });
    return answer;
  }
}

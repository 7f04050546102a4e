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
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Why the collector refused a hit, the `reason` label of stat_hits_refused_total: a hit that is
 * not valid (not JSON, a field out of its limits, a query not percent-encoded UTF-8), a body not
 * UTF-8, a body over MAX_HIT_BYTES, two different Content-Length headers, a full buffer (503).
 */
export const REFUSALS = ['invalid', 'not_utf8', 'too_large', 'ambiguous_length', 'busy'] as const;
export type Refusal = (typeof REFUSALS)[number];

/**
 * What the collector answers to each request, whichever server read it: the hit is validated
 * and offered to the buffer here, so both servers acknowledge exactly the same hits.
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
  pixel(query: string, facts: RequestFacts): Answer {
    return this.offer(acceptQuery(query, facts), true);
  }

  /**
   * POST /hit before its body is read: a refusal by the headers alone, or null to read on.
   * Two different lengths mean two parties may read two different requests (smuggling).
   */
  beforeBody(contentLengths: readonly string[]): Answer | null {
    if (new Set(contentLengths.map((v) => v.trim())).size > 1) {
      return this.refused('ambiguous_length', { status: '400 Bad Request', headers: [CORS, ['Connection', 'close']], body: 'Content-Length: given twice with different values' });
    }
    if (Number(contentLengths[0] || '0') > MAX_HIT_BYTES) return this.tooLarge();
    return null;
  }

  /** POST /hit: the beacon, its hit in the body (bytes as they came, refused unless UTF-8). */
  beacon(bytes: Buffer, facts: RequestFacts): Answer {
    if (bytes.byteLength > MAX_HIT_BYTES) return this.tooLarge();
    let body: string;
    try {
      body = utf8.decode(bytes);
    } catch {
      return this.refused('not_utf8', { status: '400 Bad Request', headers: [CORS], body: 'body: not valid UTF-8' });
    }
    return this.offer(acceptBody(body, facts), false);
  }

  tooLarge(): Answer {
    return this.refused('too_large', { status: '413 Payload Too Large', headers: [CORS], body: `body over ${MAX_HIT_BYTES} bytes` });
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
    return { status: '404 Not Found', headers: [], body: 'not found' };
  }

  private offer(acceptance: Acceptance, pixel: boolean): Answer {
    if (!acceptance.ok) return this.refused('invalid', { status: '400 Bad Request', headers: [CORS], body: acceptance.reason });
    if (!this.buffer.offer(acceptance.hit)) return this.refused('busy', { status: '503 Service Unavailable', headers: [CORS, ['Retry-After', '5']], body: 'busy' });
    this.metrics.hitsAccepted.inc();
    if (pixel) return { status: '200 OK', headers: [['Content-Type', 'image/gif'], ['Cache-Control', 'no-store']], body: PIXEL };
    return { status: '204 No Content', headers: [CORS] };
  }

  private refused(reason: Refusal, answer: Answer): Answer {
    this.metrics.hitsRefused.inc({ reason });
    return answer;
  }
}

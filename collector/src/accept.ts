import { randomUUID } from 'node:crypto';
import { validateHit, type AcceptedHit } from '@stat/schemas';

export type Acceptance = { ok: true; hit: AcceptedHit } | { ok: false; reason: string };

export interface RequestFacts {
  ip: string;
  userAgent: string;
  /** server time of arrival, epoch ms */
  now: number;
}

/** Turns a POST beacon body (JSON text) into an accepted hit, or a reason it is not one. */
export function acceptBody(body: string, facts: RequestFacts): Acceptance {
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    return { ok: false, reason: 'body: not valid JSON' };
  }
  return accept(data, facts);
}

/** Turns a GET pixel's query string into an accepted hit, or a reason it is not one. */
export function acceptQuery(query: string, facts: RequestFacts): Acceptance {
  return accept(Object.fromEntries(new URLSearchParams(query)), facts);
}

function accept(data: unknown, facts: RequestFacts): Acceptance {
  const result = validateHit(data);
  if (!result.ok) return result;
  return {
    ok: true,
    hit: { id: randomUUID(), at: facts.now, ip: facts.ip, ua: facts.userAgent, hit: result.hit },
  };
}

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
  const fields = parseQuery(query);
  if (fields === null) return { ok: false, reason: 'query: not valid percent-encoded UTF-8' };
  return accept(fields, facts);
}

/**
 * A query string as its keys and values, or null when a part is not percent-encoded UTF-8
 * (URLSearchParams would turn such bytes into replacement characters: refused, not mangled).
 * A key given twice is kept once, the last, as URLSearchParams would.
 */
function parseQuery(query: string): Record<string, string> | null {
  // A query is ASCII: anything else (a raw byte such as \xff, read as a replacement character)
  // was not percent-encoded.
  if (/[^\x21-\x7e]/.test(query)) return null;
  const fields: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const part of query.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const rawKey = eq < 0 ? part : part.slice(0, eq);
    const rawValue = eq < 0 ? '' : part.slice(eq + 1);
    try {
      fields[decodeURIComponent(rawKey.replace(/\+/g, ' '))] = decodeURIComponent(rawValue.replace(/\+/g, ' '));
    } catch {
      return null;
    }
  }
  return fields;
}

function accept(data: unknown, facts: RequestFacts): Acceptance {
  const result = validateHit(data);
  if (!result.ok) return result;
  return {
    ok: true,
    hit: { id: randomUUID(), at: facts.now, ip: facts.ip, ua: facts.userAgent, hit: result.hit },
  };
}

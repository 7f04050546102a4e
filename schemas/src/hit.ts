import { z } from 'zod';

/** Largest body the collector accepts for one hit; larger bodies get 413. */
export const MAX_HIT_BYTES = 8 * 1024;

/** Event types the counter sends. Page views for now; custom events come with the event model. */
export const HIT_TYPES = ['pageview'] as const;
export type HitType = (typeof HIT_TYPES)[number];

const uint = (max: number) => z.coerce.number().int().min(0).max(max);

/**
 * The hit as it travels on the wire from the counter snippet to the collector.
 * Keys are one or two letters to keep the snippet and the beacons small.
 * GET pixels carry the same keys as query parameters, so numbers are coerced.
 */
export const hitSchema = z.strictObject({
  /** project (counter) id */
  p: z.coerce.number().int().min(1).max(4_294_967_295),
  /** event type */
  t: z.enum(HIT_TYPES).default('pageview'),
  /** page url, absolute http(s) */
  u: z.string().max(2048).regex(/^https?:\/\/[^\s]+$/i, 'must be an absolute http(s) url'),
  /** referrer, absolute url or empty */
  r: z.string().max(2048).default(''),
  /** page title */
  ti: z.string().max(1024).default(''),
  /** screen width and height in CSS pixels */
  sw: uint(100_000).default(0),
  sh: uint(100_000).default(0),
  /** first-party visitor id made by the snippet */
  v: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'must be 8 to 64 characters of [A-Za-z0-9_-]'),
});

/** A hit after validation, with defaults applied. */
export type Hit = z.infer<typeof hitSchema>;

/** What the collector hands to the bus: the hit plus what only the server knows. */
export interface AcceptedHit {
  /** unique id of this event, made by the collector; the key of idempotent storage */
  id: string;
  /** server time of acceptance, epoch milliseconds */
  at: number;
  /** client address; used for enrichment, never stored */
  ip: string;
  /** user agent header */
  ua: string;
  hit: Hit;
}

export type HitValidation = { ok: true; hit: Hit } | { ok: false; reason: string };

/** Validates an untrusted hit; the reason names the first bad field. */
export function validateHit(input: unknown): HitValidation {
  const parsed = hitSchema.safeParse(input);
  if (parsed.success) return { ok: true, hit: parsed.data };
  const issue = parsed.error.issues[0];
  const field = issue?.path.join('.') || 'body';
  return { ok: false, reason: `${field}: ${issue?.message ?? 'invalid'}` };
}

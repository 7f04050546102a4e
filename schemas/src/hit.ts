import { z } from 'zod';

/** Largest body the collector accepts for one hit; larger bodies get 413. */
export const MAX_HIT_BYTES = 8 * 1024;

/**
 * Event types the counter sends:
 * - `pageview`: a page was shown (on load, on SPA navigation, on a hash change when tracked);
 * - `event`: a custom event from the page's code (`stat('event', name, params)`);
 * - `click`: a click inside a block marked with the block-analytics attribute;
 * - `show`: a marked block came into view (once per block and page view);
 * - `outbound`: a click on a link to another host, to a file, or with tel: or mailto:;
 * - `engagement`: time the page was visible since the last such hit, sent when it is hidden or left;
 * - `read`: how far an article page was scrolled and read, sent with the engagement.
 */
export const HIT_TYPES = ['pageview', 'event', 'click', 'show', 'outbound', 'engagement', 'read'] as const;
export type HitType = (typeof HIT_TYPES)[number];

/**
 * Event classes a custom event may name (the spec's `event_class`): base, ub (block analytics),
 * media, ec (e-commerce), cv (custom events, the default). The classes rec and tech are the
 * service's own and are refused from pages.
 */
export const EVENT_CLASSES = ['base', 'ub', 'media', 'ec', 'cv'] as const;
export type EventClass = (typeof EVENT_CLASSES)[number];

/** The limits of the fields a page controls; a maximal hit of every type fits in MAX_HIT_BYTES. */
export const HIT_LIMITS = {
  /** custom event name, characters */
  eventName: 128,
  /** parameters of one custom event */
  params: 20,
  /** parameter name, characters */
  paramKey: 32,
  /** parameter value when a string, characters */
  paramValue: 200,
  /** the site's own user id, characters */
  userId: 128,
  /** block name (the value of the block-analytics attribute), characters */
  blockName: 128,
  /** any url, characters */
  url: 2048,
  /** engaged time in one hit, milliseconds: one day */
  engagedMs: 86_400_000,
  /** a material's title (article pages), characters */
  materialTitle: 256,
  /** a material's author, characters */
  materialAuthor: 100,
  /** a material's published time as the page writes it, characters */
  materialPublished: 40,
} as const;

/** The keys that belong to some event types only: which are required and which are allowed. */
const TYPE_FIELDS: Record<HitType, { required: readonly TypedKey[]; allowed: readonly TypedKey[] }> = {
  pageview: { required: [], allowed: [] },
  event: { required: ['en'], allowed: ['en', 'ec', 'ep'] },
  click: { required: ['bl'], allowed: ['bl'] },
  show: { required: ['bl'], allowed: ['bl'] },
  outbound: { required: ['l'], allowed: ['l'] },
  engagement: { required: ['d'], allowed: ['d'] },
  read: { required: ['sp', 'rp'], allowed: ['sp', 'rp'] },
};
const TYPED_KEYS = ['ec', 'en', 'ep', 'bl', 'l', 'd', 'sp', 'rp'] as const;
type TypedKey = (typeof TYPED_KEYS)[number];

/**
 * The range of a project id everywhere it is stored: Postgres `integer` (int4) and ClickHouse
 * `UInt32` share 1 to 2 147 483 647. The collector, the aggregator and the api check ids
 * against it before any query, so no id that some store refuses gets further than a 400.
 */
export const PROJECT_ID_MAX = 2_147_483_647;

/** Largest screen side a hit may carry: the `UInt16` columns of screen width and height. */
export const SCREEN_MAX = 65_535;

/**
 * A whole number from JSON (a number) or from a pixel's query (decimal digits only). Not
 * z.coerce: that would take `true`, `[5]`, `"0x10"` or `"1e3"` as numbers.
 */
const wholeNumber = (message: string) =>
  z.preprocess((value) => (typeof value === 'string' && /^[0-9]{1,16}$/.test(value) ? Number(value) : value), z.number({ error: message }).int(message));

const uint = (max: number) => wholeNumber('must be a whole number').pipe(z.number().min(0, `must be 0 to ${max}`).max(max, `must be 0 to ${max}`));
const percent = wholeNumber('must be a whole percent').pipe(z.number().min(0, 'must be 0 to 100').max(100, 'must be 0 to 100'));

/** A lone UTF-16 surrogate: text that no store can keep as UTF-8. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Why a string cannot be stored as it is (NUL, which Postgres refuses; a lone surrogate, which
 * is not Unicode and which ClickHouse refuses), or null when it can. Refused, never mangled.
 */
export function unstorableText(value: string): string | null {
  if (value.includes('\u0000')) return 'must not contain NUL characters';
  if (LONE_SURROGATE.test(value)) return 'must be well-formed Unicode (a lone surrogate)';
  return null;
}

/** Any string field of a hit: at most `max` characters, storable (see unstorableText). */
const storable = (max: number) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .superRefine((value, ctx) => {
      const reason = unstorableText(value);
      if (reason) ctx.addIssue({ code: 'custom', message: reason });
    });
const NO_CONTROL = /^[^\u0000-\u001f\u007f]*$/;
/** A non-empty line of text: no control characters, at most `max` characters. */
const text = (max: number) =>
  storable(max)
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .regex(NO_CONTROL, 'must not contain control characters');
const httpUrl = storable(HIT_LIMITS.url)
  .regex(/^https?:\/\/[^\s]+$/i, 'must be an absolute http(s) url');
/** A clicked link: an absolute http(s) url, or a tel: or mailto: address. */
const linkUrl = storable(HIT_LIMITS.url)
  .regex(/^(https?:\/\/|tel:|mailto:)[^\s]+$/i, 'must be an absolute http(s) url or a tel: or mailto: link');

/**
 * Custom event parameters: a flat object of string or number values. A GET pixel carries it as
 * JSON in one query key, so a string is parsed first.
 */
const params = z.preprocess(
  (value) => {
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  },
  z
    .record(
      text(HIT_LIMITS.paramKey),
      z.union([storable(HIT_LIMITS.paramValue), z.number()], {
        error: 'must be a string or a finite number',
      }),
      {
        error: (issue) =>
          issue.code === 'invalid_key'
            ? `parameter names must be 1 to ${HIT_LIMITS.paramKey} characters without control characters`
            : 'must be a flat object of string or number values',
      },
    )
    .refine((value) => Object.keys(value).length <= HIT_LIMITS.params, `at most ${HIT_LIMITS.params} parameters`),
);

/**
 * The hit as it travels on the wire from the counter snippet to the collector.
 * Keys are one to three letters to keep the snippet and the beacons small.
 * GET pixels carry the same keys as query parameters, so numbers are coerced and `ep` is JSON.
 * The keys of TYPE_FIELDS belong to their event types: required there, refused elsewhere.
 */
export const hitSchema = z
  .strictObject({
    /** project (counter) id */
    p: wholeNumber('must be a whole number').pipe(z.number().min(1, 'must be at least 1').max(PROJECT_ID_MAX, `must be at most ${PROJECT_ID_MAX}`)),
    /** event type */
    t: z.enum(HIT_TYPES).default('pageview'),
    /** page url, absolute http(s): the page the hit belongs to */
    u: httpUrl,
    /** referrer, absolute url or empty; page views only carry one */
    r: storable(HIT_LIMITS.url).default(''),
    /** page title */
    ti: storable(1024).default(''),
    /** screen width and height in CSS pixels */
    sw: uint(SCREEN_MAX).default(0),
    sh: uint(SCREEN_MAX).default(0),
    /** first-party visitor id made by the snippet */
    v: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'must be 8 to 64 characters of [A-Za-z0-9_-]'),
    /** the site's own id of a signed-in user, set by the page when the counter option allows it */
    uid: text(HIT_LIMITS.userId).optional(),
    /** event class of a custom event; `cv` when absent */
    ec: z.enum(EVENT_CLASSES, { error: `must be one of ${EVENT_CLASSES.join(', ')}` }).optional(),
    /** event name of a custom event */
    en: text(HIT_LIMITS.eventName).optional(),
    /** parameters of a custom event */
    ep: params.optional(),
    /** block name of a block click or show */
    bl: text(HIT_LIMITS.blockName).optional(),
    /** link target of a link click (to another host, to a file, tel: or mailto:) */
    l: linkUrl.optional(),
    /** engaged (visible) milliseconds since the previous engagement hit of the same page view */
    d: wholeNumber('must be whole milliseconds')
      .pipe(z.number().min(1, 'must be at least 1 ms')
      .max(HIT_LIMITS.engagedMs, `must be at most ${HIT_LIMITS.engagedMs} ms`))
      .optional(),
    /** deepest point of the page seen, percent of its height */
    sp: percent.optional(),
    /** deepest point of the article read, percent of its height */
    rp: percent.optional(),
    /**
     * The material of an article page (the full counter, on every hit of the page view): its
     * title, author and published time as the page publishes them. Any hit type may carry them.
     * The published time is kept as text here: a page's odd date must not cost its page view;
     * the aggregator stores what ISO 8601 it can read (materialPublishedAt) and unknown otherwise.
     */
    mt: text(HIT_LIMITS.materialTitle).optional(),
    ma: text(HIT_LIMITS.materialAuthor).optional(),
    mp: text(HIT_LIMITS.materialPublished).optional(),
  })
  .superRefine((hit, ctx) => {
    const fields = TYPE_FIELDS[hit.t];
    for (const key of TYPED_KEYS) {
      const present = hit[key] !== undefined;
      if (present && !fields.allowed.includes(key)) {
        ctx.addIssue({ code: 'custom', path: [key], message: `not allowed on ${hit.t} hits` });
      } else if (!present && fields.required.includes(key)) {
        ctx.addIssue({ code: 'custom', path: [key], message: `required on ${hit.t} hits` });
      }
    }
  })
  .transform((hit) => (hit.t === 'event' && hit.ec === undefined ? { ...hit, ec: 'cv' as const } : hit));

/** A hit after validation, with defaults applied (a custom event always has its class). */
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
  /**
   * Set on a hit the collector sends on from its hit log (cluster mode, after Kafka refused or
   * did not answer): Kafka may hold it already, from the send whose answer was lost, so the
   * aggregator looks it up by its id before storing it. Absent on a first send.
   */
  resent?: true;
}

/**
 * An accepted hit as it comes off the bus, untrusted until checked: the same hit schema as the
 * collector's, plus what the collector stamped. The aggregator parses every bus message with it.
 */
export const acceptedHitSchema = z.strictObject({
  id: z.uuid({ error: 'must be a UUID' }),
  at: z.number().int().min(0).max(8_640_000_000_000_000),
  ip: z.string().max(64),
  ua: storable(4096),
  hit: hitSchema,
  resent: z.literal(true).optional(),
});

const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * A material's published time (`mp`) as epoch seconds, or 0 when it is no ISO 8601 date and
 * time that exists (2024-05-01, 2024-05-01T09:30, 2024-05-01T09:30:00+03:00, …Z). A time
 * without an offset is Moscow time, as the reports' (GMT+3); a date alone is its Moscow midnight.
 */
export function materialPublishedAt(text: string | undefined): number {
  const m = text === undefined ? null : ISO_TIME.exec(text.trim());
  if (!m) return 0;
  const [, y, mo, d, h = '00', mi = '00', sec = '00', zone] = m;
  let offsetMin = 180;
  if (zone !== undefined && zone.toUpperCase() !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    offsetMin = (zone[0] === '-' ? -1 : 1) * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0'));
  } else if (zone !== undefined) {
    offsetMin = 0;
  }
  const local = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(sec));
  const back = new Date(local);
  // Date.UTC rolls 2024-02-30 over to March: such a date does not exist.
  if (back.getUTCMonth() !== Number(mo) - 1 || back.getUTCDate() !== Number(d) || Number(h) > 23 || Number(mi) > 59 || Number(sec) > 59) return 0;
  const seconds = Math.floor((local - offsetMin * 60_000) / 1000);
  // The column is DateTime (UInt32 seconds): 1970 to 2106.
  return seconds > 0 && seconds < 4_294_967_296 ? seconds : 0;
}

export type HitValidation = { ok: true; hit: Hit } | { ok: false; reason: string };

/** Validates an untrusted hit; the reason names the first bad field. */
export function validateHit(input: unknown): HitValidation {
  const parsed = hitSchema.safeParse(input);
  if (parsed.success) return { ok: true, hit: parsed.data };
  return { ok: false, reason: firstIssue(parsed.error) };
}

export type AcceptedHitValidation = { ok: true; accepted: AcceptedHit } | { ok: false; reason: string };

/** Validates an untrusted bus message as an accepted hit; the reason names the first bad field. */
export function validateAcceptedHit(input: unknown): AcceptedHitValidation {
  const parsed = acceptedHitSchema.safeParse(input);
  if (parsed.success) return { ok: true, accepted: parsed.data };
  return { ok: false, reason: firstIssue(parsed.error) };
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  const field = issue?.path.join('.') || 'body';
  return `${field}: ${issue?.message ?? 'invalid'}`;
}

import { PROJECT_ID_MAX, validateAcceptedHit, type AcceptedHit, type DeadLetter } from '@stat/schemas';
import { deadLetter, ok, type StepResult } from './result.js';

/**
 * The first step: a bus message, untrusted, to an accepted hit. The in-process bus hands over
 * the collector's objects, Kafka each message's text (JSON): text is parsed first. Whatever is not
 * an accepted hit (acceptedHitSchema: an old collector's project id out of range, a lone
 * surrogate, a missing field) becomes a dead letter with the validation's reason.
 */
export function parseMessage(message: unknown): StepResult<AcceptedHit> {
  let data = message;
  if (typeof message === 'string') {
    try {
      data = JSON.parse(message) as unknown;
    } catch {
      return deadLetter('body: not valid JSON');
    }
  }
  const validated = validateAcceptedHit(data);
  return validated.ok ? ok(validated.accepted) : deadLetter(validated.reason);
}

const LONE_SURROGATES = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A message as JSON text that any store can keep: text as it came (a lone surrogate, which no
 * UTF-8 store holds, written as its `\uXXXX` escape), anything else through JSON.stringify (which
 * escapes lone surrogates and control characters, NUL included).
 */
export function rawOf(message: unknown): string {
  if (typeof message === 'string') {
    return message.replace(LONE_SURROGATES, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  }
  try {
    return JSON.stringify(message) ?? String(message);
  } catch {
    // A value JSON cannot write (a BigInt, a cycle): its string form, for the operator's eyes.
    return rawOf(String(message));
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What can be read of a message that is not a valid hit: its event id, project and time, when usable. */
function salvage(message: unknown): { eventId: string; projectId: number; hitAt: number | null } {
  let data = message;
  if (typeof message === 'string') {
    try {
      data = JSON.parse(message) as unknown;
    } catch {
      data = null;
    }
  }
  const record = (value: unknown): Record<string, unknown> | null =>
    typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  const outer = record(data);
  const id = outer?.['id'];
  const at = outer?.['at'];
  const p = record(outer?.['hit'])?.['p'];
  return {
    eventId: typeof id === 'string' && UUID.test(id) ? id : '',
    projectId: typeof p === 'number' && Number.isInteger(p) && p >= 1 && p <= PROJECT_ID_MAX ? p : 0,
    hitAt: typeof at === 'number' && Number.isInteger(at) && at >= 0 && at <= 8_640_000_000_000_000 ? at : null,
  };
}

/** A dead letter of a message, set aside at `at` (epoch ms) for `reason`. */
export function deadLetterOf(message: unknown, reason: string, at: number): { letter: DeadLetter; hitAt: number | null } {
  const { eventId, projectId, hitAt } = salvage(message);
  return { letter: { reason, raw: rawOf(message), eventId, projectId, at }, hitAt };
}

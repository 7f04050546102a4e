/**
 * What a step of the aggregator's pipeline decides about one hit: go on with the value, drop the
 * hit for a reason that is counted (and, but for unknown projects, recorded in dropped_hits), or
 * set the message aside as a dead letter (dead_hits) because it cannot be stored. Bad data is a
 * value here; a step never throws for it. Outages are the pipeline's (batch/pipeline.ts), which
 * batch/tries.ts retries.
 */
export type StepResult<T> = { ok: T } | { drop: DropReason } | { deadLetter: string };

/**
 * Why a hit is not stored although it is fine: a known crawler by its user agent ('bot'), a page
 * the project's whitelist or blacklist excludes, a project that is unknown or deleted.
 */
export type DropReason = 'bot' | 'blacklisted' | 'not_whitelisted' | 'no_project';

/** The drop reasons recorded in dropped_hits: anyone can send hits for any project id, so those of unknown projects are only counted. */
export type RecordedDrop = Exclude<DropReason, 'no_project'>;

/** A step: a function from one hit to what becomes of it. */
export type Step<In, Out> = (input: In) => StepResult<Out>;

export const ok = <T>(value: T): StepResult<T> => ({ ok: value });
export const drop = <T>(reason: DropReason): StepResult<T> => ({ drop: reason });
export const deadLetter = <T>(reason: string): StepResult<T> => ({ deadLetter: reason });

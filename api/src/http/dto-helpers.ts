import { Transform } from 'class-transformer';
import { ValidateIf } from 'class-validator';

/** Whitespace around a title or description is not part of it. */
export const Trimmed = (): PropertyDecorator => Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value));

/** A query string's row id as a number (anything else is left for the validators to refuse). */
export const QueryId = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value));

/** Validates a field only when it was sent (null is sent, and checked). */
export const Given = (): PropertyDecorator => ValidateIf((_, value) => value !== undefined);

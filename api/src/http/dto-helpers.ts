import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsInt, Max, Min, ValidateBy, ValidateIf } from 'class-validator';

/** Whitespace around a title or description is not part of it. */
export const Trimmed = (): PropertyDecorator => Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value));

/** A query string's row id as a number (anything else is left for the validators to refuse). */
export const QueryId = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value));

/** Validates a field only when it was sent (null is sent, and checked). */
export const Given = (): PropertyDecorator => ValidateIf((_, value) => value !== undefined);

/** The furthest row a paged list or table is read from. */
const OFFSET_MAX = 1_000_000;

/** A page's offset: a whole number from 0 to OFFSET_MAX (the nearest of the stacked decorators first, as `@IsInt() @Min(0) @Max(OFFSET_MAX)` reads). */
export const IsPageOffset = (): PropertyDecorator => applyDecorators(Max(OFFSET_MAX), Min(0), IsInt());

/**
 * The check `name` by a function that says what is wrong with a value, or null: it fails with
 * that text, so that each way a value is wrong has its one message (a title's «Поле не заполнено»
 * or its length's).
 */
export const HasNoProblem = (name: string, problemOf: (value: unknown) => string | null): PropertyDecorator =>
  ValidateBy({ name, validator: { validate: (value) => problemOf(value) === null, defaultMessage: (args) => problemOf(args?.value) ?? '' } });

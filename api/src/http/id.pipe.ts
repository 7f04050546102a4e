import { BadRequestException, Injectable, type PipeTransform } from '@nestjs/common';
import { PROJECT_ID_MAX } from '@stat/schemas';
import { IsInt, Max, Min, type ValidationOptions } from 'class-validator';

/**
 * Largest id of every row the api names (projects, users, access requests, rating themes,
 * types and regions): the range of a Postgres `integer` and of the project ids that ClickHouse
 * and the collector take. An id outside it is a 400, never a query that overflows.
 */
export const ID_MAX = PROJECT_ID_MAX;

/** A row id written in digits, 1 to ID_MAX; anything else is a 400 that names the field. */
export function parseRowId(value: string | undefined, name: string): number {
  const id = value !== undefined && /^\d{1,10}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(id) || id < 1 || id > ID_MAX) throw new BadRequestException(rowIdMessage(name));
  return id;
}

function rowIdMessage(name: string): string {
  return `${name} must be a whole number from 1 to ${ID_MAX}`;
}

/** A numeric id from the path (a database row id). */
@Injectable()
export class IdPipe implements PipeTransform<string, number> {
  constructor(private readonly name = 'id') {}

  transform(value: string): number {
    return parseRowId(value, this.name);
  }
}

/** A row id in a body or query DTO (`each` for arrays of ids): an integer from 1 to ID_MAX. */
export function IsRowId(options: ValidationOptions = {}): PropertyDecorator {
  return (target, key) => {
    IsInt(options)(target, key);
    Min(1, options)(target, key);
    Max(ID_MAX, options)(target, key);
  };
}

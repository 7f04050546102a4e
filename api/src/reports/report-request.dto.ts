import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  Max,
  Min,
  ValidateNested,
  registerDecorator,
  type ValidationArguments,
} from 'class-validator';
import { GROUPS, METRICS, type Group, type Metric } from '@stat/schemas';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const SORT_NAMES = ['date', ...METRICS] as const;
export type SortName = (typeof SORT_NAMES)[number];

/** True for a real calendar date written YYYY-MM-DD (2026-02-30 is not one). */
export function isCalendarDate(value: unknown): value is string {
  if (typeof value !== 'string' || !DATE.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
}

function IsCalendarDate(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isCalendarDate',
      target: target.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: (value: unknown) => isCalendarDate(value),
        defaultMessage: (args?: ValidationArguments) => `${args?.property ?? 'date'} must be a real date written YYYY-MM-DD`,
      },
    });
}

/** The date is not before the date in `field` (both YYYY-MM-DD, so strings compare as dates). */
function IsNotBefore(field: string): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isNotBefore',
      target: target.constructor,
      propertyName: String(propertyName),
      constraints: [field],
      validator: {
        validate: (value: unknown, args?: ValidationArguments) => {
          const other = (args?.object as Record<string, unknown> | undefined)?.[field];
          return !isCalendarDate(value) || !isCalendarDate(other) || value >= other;
        },
        defaultMessage: (args?: ValidationArguments) => `${args?.property ?? 'date'} must not be before ${field}`,
      },
    });
}

export class ReportSortDto {
  @IsIn(SORT_NAMES)
  name!: SortName;

  @IsIn(['asc', 'desc'])
  order!: 'asc' | 'desc';
}

/** The body of a report graph or table call (specification 001, section 7). */
export class ReportRequestDto {
  @IsCalendarDate()
  date_start!: string;

  @IsCalendarDate()
  @IsNotBefore('date_start')
  date_end!: string;

  @IsIn(GROUPS)
  group!: Group;

  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(METRICS.length)
  @ArrayUnique()
  @IsIn(METRICS, { each: true })
  metrics!: Metric[];

  @IsOptional()
  @ValidateNested()
  @Type(() => ReportSortDto)
  sort?: ReportSortDto;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @IsOptional()
  @IsInt()
  @Min(0)
  offset?: number;
}

import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsNumber,
  IsString,
  ValidateBy,
  IsInt,
  IsOptional,
  Max,
  MaxLength,
  Min,
  ValidateNested,
  registerDecorator,
  type ValidationArguments,
} from 'class-validator';
import { CONSTRUCTOR_MAX_DIMENSIONS, DIMENSIONS, GROUPS, METRICS, type Group, type Metric } from '@stat/schemas';
import { DimensionFilterRuleDto, DimensionFilterRules, MetricFilterRuleDto, MetricFilterRules } from './filter.dto.js';
import { applyDecorators } from '@nestjs/common';
import { Given, IsPageOffset, Trimmed } from '../http/dto-helpers.js';
import type { ReportRequest } from '../engine/index.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const SORT_NAMES = ['date', 'title', ...METRICS] as const;
export type SortName = (typeof SORT_NAMES)[number];

/** True for a real calendar date written YYYY-MM-DD (2026-02-30 is not one). */
export function isCalendarDate(value: unknown): value is string {
  if (typeof value !== 'string' || !DATE.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
}

const RELATIVE_DATE = /^(today|yesterday|[1-9]\d{0,3}days)$/;

/** A real calendar date, or a date relative to today (§3 "Relative dates"). */
export function IsReportDate(): PropertyDecorator {
  return ValidateBy(
    { name: 'isReportDate', validator: { validate: (value: unknown) => isCalendarDate(value) || (typeof value === 'string' && RELATIVE_DATE.test(value)) } },
    { message: (args) => `${args.property} must be a real date written YYYY-MM-DD, or today, yesterday or Ndays` },
  );
}

/** The date is not before the date in `field` (both YYYY-MM-DD, so strings compare as dates). */
export function IsNotBefore(field: string): PropertyDecorator {
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

/** The end of a report's period: a report date (§3), not before its `date_start`. */
export const IsReportDateEnd = (): PropertyDecorator =>
  // The nearest of the stacked decorators first, as `@IsReportDate() @IsNotBefore('date_start')` reads.
  applyDecorators(IsNotBefore('date_start'), IsReportDate());

/** A report's share of visitors to read, (0, 1] (§9). */
export const IsSample = (): PropertyDecorator => applyDecorators(Max(1), Min(0.0001), IsNumber({ allowNaN: false, allowInfinity: false }));

export class ReportSortDto {
  /** a metric, `date` (rows of time buckets) or `title` (the rows' values) */
  @IsIn(SORT_NAMES)
  name!: SortName;

  /** missing: the column's default direction (metrics descending, titles ascending, dates descending) */
  @IsOptional()
  @IsIn(['asc', 'desc'])
  order?: 'asc' | 'desc';
}

/** Values of a drill-down path or a selected line: one per level, at most the deepest report's (the constructor's 10 levels). */
const PATH_MAX = CONSTRUCTOR_MAX_DIMENSIONS;
const PATH_VALUE_MAX = 2000;
/** Lines one graph draws at most (spec §9: max selected rows 10). */
const MAX_SELECTED_LINES = 10;

const isPathValue = (v: unknown): boolean =>
  (typeof v === 'string' && v.length <= PATH_VALUE_MAX) || (typeof v === 'number' && Number.isFinite(v));

/** A list of 0 to PATH_MAX strings or numbers: a row's path from the top of its report. */
function IsPath(): PropertyDecorator {
  return ValidateBy(
    { name: 'isPath', validator: { validate: (value: unknown) => Array.isArray(value) && value.length <= PATH_MAX && value.every(isPathValue) } },
    { message: (args) => `${args.property} must be a list of at most ${PATH_MAX} values (strings of at most ${PATH_VALUE_MAX} characters or numbers)` },
  );
}

/** Row ids of the table (each the JSON text of its path), at most MAX_SELECTED_LINES. */
function IsLineIds(): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isLineIds',
      validator: {
        validate: (value: unknown) =>
          Array.isArray(value) &&
          value.length <= MAX_SELECTED_LINES &&
          value.every((id) => {
            if (typeof id !== 'string' || id.length > PATH_MAX * (PATH_VALUE_MAX + 8)) return false;
            try {
              const path: unknown = JSON.parse(id);
              return Array.isArray(path) && path.length >= 1 && path.length <= PATH_MAX && path.every(isPathValue);
            } catch {
              return false;
            }
          }),
      },
    },
    { message: `selected_lines must be at most ${MAX_SELECTED_LINES} row ids of the table` },
  );
}

/** The body of a report graph or table call (specification 001, section 7). */
export class ReportRequestDto implements ReportRequest {
  /** YYYY-MM-DD, or today, yesterday, Ndays (§3); resolved in Moscow time by the planner */
  @IsReportDate()
  date_start!: string;

  @IsReportDateEnd()
  date_end!: string;

  @IsIn(GROUPS)
  group!: Group;

  /** missing: the report's default metrics */
  @IsOptional()
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(METRICS.length)
  @ArrayUnique()
  @IsIn(METRICS, { each: true })
  metrics?: Metric[];

  @IsOptional()
  @ValidateNested()
  @Type(() => ReportSortDto)
  sort?: ReportSortDto;

  /** graph: the rows drawn as lines (ids of table rows); missing: the table's first rows (null is no list: refused) */
  @Given()
  @IsLineIds()
  selected_lines?: string[];

  /** graph: add the line of the whole report */
  @IsOptional()
  @IsBoolean()
  need_all_total?: boolean;

  /** experiments: the service runs none, so only an empty list is accepted */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(0, { message: 'split tests are not collected by this service: split must be empty' })
  split?: string[];

  /**
   * the report's drill-down dimensions, or the first of them; the constructor's own (at most 10
   * are read, §5; a list longer than the catalogue is refused; null is no list: refused)
   */
  @Given()
  @IsArray()
  @ArrayMaxSize(Object.keys(DIMENSIONS).length)
  @IsString({ each: true })
  dimensions?: string[];

  /** the spec's older name of dimension_filters */
  @IsOptional()
  @DimensionFilterRules()
  filters?: DimensionFilterRuleDto[];

  @IsOptional()
  @DimensionFilterRules()
  dimension_filters?: DimensionFilterRuleDto[];

  @IsOptional()
  @MetricFilterRules()
  metric_filters?: MetricFilterRuleDto[];

  /** share of visitors to read, (0, 1]; the answer says the sample used */
  @IsOptional()
  @IsSample()
  sample?: number;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(100)
  limit?: number;

  @IsOptional()
  @IsPageOffset()
  offset?: number;

  /** table of time buckets: include the buckets without traffic (default true) */
  @IsOptional()
  @IsBoolean()
  empty_dates?: boolean;

  /** table: the path of the row being expanded; its children are answered */
  @IsOptional()
  @IsPath()
  parents?: (string | number)[];
}

/** The longest title of a CSV file (a template's or a report's title, §5: at most 255). */
const CSV_TITLE_MAX = 255;

/**
 * §7 "…/csv — same params as the table without offset and limit, sample 1, title": the title
 * the file is named by (with its period, as «{title} {period}.csv»); missing or blank, the
 * report's own title. Trimmed, at most 255 characters.
 */
export const CsvTitle = (): PropertyDecorator => applyDecorators(MaxLength(CSV_TITLE_MAX), IsString(), Trimmed(), Given());

/** The body of a report's CSV call: the table's, and the file's title. */
export class ReportCsvRequestDto extends ReportRequestDto {
  @CsvTitle()
  title?: string;
}

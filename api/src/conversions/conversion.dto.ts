import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayNotEmpty, ArrayUnique, IsArray, IsBoolean, IsIn, IsInt, IsNumber, IsOptional, IsString, Max, MaxLength, Min, ValidateBy, ValidateIf, ValidateNested } from 'class-validator';
import {
  ATTRIBUTION_MODELS,
  ATTRIBUTION_WINDOWS,
  CONVERSION_ACCESS,
  CONVERSION_DESCRIPTION_MAX,
  CONVERSION_METRICS,
  CONVERSION_TABLE_DIMENSIONS,
  CONVERSION_TABLE_MAX_DIMENSIONS,
  CONVERSION_TABLE_METRICS,
  CONVERSION_TABLE_PAGE,
  CONVERSION_WIDGET_INFO,
  CONVERSION_TEXTS,
  CONVERSION_TITLE_MAX,
  CONVERSION_TITLE_MIN,
  type AttributionModel,
  type AttributionWindow,
  type ConversionAccess,
  type ConversionMetric,
  type ConversionTableDimension,
  type ConversionTableMetric,
  type ConversionWidgetDimension,
} from '@stat/schemas';
import { ID_MAX, IsRowId } from '../http/id.pipe.js';
import { queryBoolean, queryInt } from '../projects/project.dto.js';
import { DimensionFilterRuleDto, DimensionFilterRules } from '../reports/filter.dto.js';
import { IsNotBefore, IsReportDate } from '../reports/report-request.dto.js';
import { Given, HasNoProblem, IsPageOffset, QueryId, Trimmed } from '../http/dto-helpers.js';

/** How many conversions one report call reads. */
export const CONVERSIONS_A_CALL = 20;

/** GET /api/v1.0/user/conversions */
export class ConversionListQueryDto {
  @IsRowId() @QueryId() project_id!: number;
  @IsOptional() @queryInt() @IsInt() @Min(1) @Max(100) limit?: number;
  @IsOptional() @queryInt() @IsPageOffset() offset?: number;
  @IsOptional() @IsString() @MaxLength(255) search?: string;
  /** others' public conversions too (default true, §7) */
  @IsOptional() @queryBoolean() @IsBoolean() show_common?: boolean;
}

/**
 * What is wrong with a conversion's title (trimmed), or null (§5: required, 3 to 255
 * characters, counted in code points as the table's CHECK counts them with char_length).
 */
function conversionTitleProblem(title: unknown): string | null {
  if (typeof title !== 'string' || title === '') return `title: ${CONVERSION_TEXTS.titleRequired}`;
  const length = [...title].length;
  return length < CONVERSION_TITLE_MIN || length > CONVERSION_TITLE_MAX ? `title: ${CONVERSION_TEXTS.titleTooShort}, не больше ${CONVERSION_TITLE_MAX}` : null;
}

/** One text per title: «Поле не заполнено» or the length's. */
const IsConversionTitle = (): PropertyDecorator => HasNoProblem('isConversionTitle', conversionTitleProblem);

/**
 * The fields of a conversion that a create or an update may leave out. (The title and the
 * numerator are each class's own: a create needs them, and a check made conditional here, by
 * `Given`, would be conditional in a subclass too: class-validator skips every check of a field
 * whose condition fails.)
 */
class ConversionFieldsDto {
  @MaxLength(CONVERSION_DESCRIPTION_MAX, { message: `description: ${CONVERSION_TEXTS.descriptionTooLong}` })
  @IsString()
  @Trimmed()
  @Given()
  description?: string;

  @IsIn(CONVERSION_METRICS) @Given() metric?: ConversionMetric;
  /** null: all visits */
  @IsRowId() @ValidateIf((_, v) => v !== undefined && v !== null) denominator_goal_id?: number | null;
  @IsIn(CONVERSION_ACCESS) @Given() access?: ConversionAccess;
  @IsIn(ATTRIBUTION_MODELS) @Given() attribution?: AttributionModel;
  @IsIn(ATTRIBUTION_WINDOWS) @Given() attribution_window?: AttributionWindow;
  /** the caller's favourite (per user) */
  @IsBoolean() @Given() is_favorite?: boolean;
}

/** POST /api/v1.0/conversion: a title and a numerator are required (§5). */
export class CreateConversionDto extends ConversionFieldsDto {
  @IsRowId() project_id!: number;

  @IsConversionTitle()
  @Trimmed()
  title!: string;

  /** one text, not one per failing bound of a row id */
  @ValidateBy(
    { name: 'isNumeratorGoal', validator: { validate: (v) => typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= ID_MAX } },
    { message: `numerator_goal_id: ${CONVERSION_TEXTS.numeratorRequired}` },
  )
  numerator_goal_id!: number;
}

/** PUT /api/v1.0/conversion/{id}: any of the fields; one sent as null is checked (and refused) as any value. */
export class UpdateConversionDto extends ConversionFieldsDto {
  @IsConversionTitle()
  @Trimmed()
  @Given()
  title?: string;

  @IsRowId() @Given() numerator_goal_id?: number;
}

/** POST …/eventbase/{projectId}/conversions: the figures of the project's conversions over a period. */
export class ConversionsReportDto {
  @IsReportDate() date_start!: string;
  @IsReportDate() @IsNotBefore('date_start') date_end!: string;
  /** which conversions (missing: every one the caller sees, up to CONVERSIONS_A_CALL) */
  @IsOptional() @IsRowId({ each: true }) @ArrayMaxSize(CONVERSIONS_A_CALL) @IsArray() conversion_ids?: number[];
  /**
   * spec 002 §7 "body filters": the report calls' dimension filter rules, applied as a report of
   * visits applies them: both sides count only the visits that the rules keep
   */
  @IsOptional() @DimensionFilterRules() filters?: DimensionFilterRuleDto[];
  /** share of visitors to read, (0, 1], as the reports take it; 1 by default (spec 002 §9); the answer says the sample used */
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0.0001)
  @Max(1)
  sample?: number;
}

/** What the table's and the widgets' calls share: the conversion, the period, the attribution. */
class ConversionBreakdownDto {
  @IsRowId() conversion_id!: number;
  @IsReportDate() date_start!: string;
  @IsReportDate() @IsNotBefore('date_start') date_end!: string;
  /** missing: the conversion's own */
  @IsOptional() @IsIn(ATTRIBUTION_MODELS) attribution?: AttributionModel;
  @IsOptional() @IsIn(ATTRIBUTION_WINDOWS) attribution_window?: AttributionWindow;
  /** share of visitors to read, (0, 1], as the reports take it; 1 by default (spec 002 §9); the answer says the sample used */
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0.0001)
  @Max(1)
  sample?: number;
}

/** The table's sort: one of its dimensions (the first column) or its metrics. */
export class ConversionTableSortDto {
  @IsIn([...CONVERSION_TABLE_DIMENSIONS, ...CONVERSION_TABLE_METRICS]) name!: ConversionTableDimension | ConversionTableMetric;
  /** missing: ascending for a dimension, descending for a metric */
  @IsOptional() @IsIn(['asc', 'desc']) order?: 'asc' | 'desc';
}

/** POST …/eventbase/{projectId}/conversion_table (and …/csv): one conversion by the credited values of the dimensions. */
export class ConversionTableDto extends ConversionBreakdownDto {
  /** missing: the traffic type */
  @IsOptional()
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(CONVERSION_TABLE_MAX_DIMENSIONS)
  @ArrayUnique()
  @IsIn(CONVERSION_TABLE_DIMENSIONS, { each: true })
  dimensions?: ConversionTableDimension[];
  /** missing: converted units, most first */
  @IsOptional() @ValidateNested() @Type(() => ConversionTableSortDto) sort?: ConversionTableSortDto;
  @IsOptional() @IsInt() @Min(1) @Max(100) limit?: number;
  @IsOptional() @IsPageOffset() offset?: number;
}

/** POST …/eventbase/{projectId}/conversion_widget/eventbase_conversion_{widget}: one conversion by a widget's dimension. */
export class ConversionWidgetDto extends ConversionBreakdownDto {
  /** one of the widget's tabs; missing: its first */
  @IsOptional() @IsIn(Object.values(CONVERSION_WIDGET_INFO).flatMap((w) => [...w.dimensions])) dimension?: ConversionWidgetDimension;
}

export const CONVERSION_TABLE_DEFAULT_LIMIT = CONVERSION_TABLE_PAGE;

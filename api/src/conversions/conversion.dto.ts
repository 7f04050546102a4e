import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, Length, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import {
  ATTRIBUTION_MODELS,
  ATTRIBUTION_WINDOWS,
  CONVERSION_ACCESS,
  CONVERSION_DESCRIPTION_MAX,
  CONVERSION_METRICS,
  CONVERSION_TABLE_PAGE,
  CONVERSION_TEXTS,
  CONVERSION_TITLE_MAX,
  CONVERSION_TITLE_MIN,
  type AttributionModel,
  type AttributionWindow,
  type ConversionAccess,
  type ConversionMetric,
} from '@stat/schemas';
import { IsRowId } from '../http/id.pipe.js';
import { queryBoolean, queryInt } from '../projects/project.dto.js';
import { IsNotBefore, IsReportDate } from '../reports/report-request.dto.js';
import { Given, QueryId, Trimmed } from '../http/dto-helpers.js';

/** How many conversions one report call reads. */
export const CONVERSIONS_A_CALL = 20;

/** GET /api/v1.0/user/conversions */
export class ConversionListQueryDto {
  @IsRowId() @QueryId() project_id!: number;
  @IsOptional() @queryInt() @IsInt() @Min(1) @Max(100) limit?: number;
  @IsOptional() @queryInt() @IsInt() @Min(0) @Max(1_000_000) offset?: number;
  @IsOptional() @IsString() @MaxLength(255) search?: string;
  /** others' public conversions too (default true, §7) */
  @IsOptional() @queryBoolean() @IsBoolean() show_common?: boolean;
}

/** The fields of a conversion that a create or an update may send. */
class ConversionFieldsDto {
  @Length(CONVERSION_TITLE_MIN, CONVERSION_TITLE_MAX, { message: `title: ${CONVERSION_TEXTS.titleTooShort}, не больше ${CONVERSION_TITLE_MAX}` })
  @IsString()
  @Trimmed()
  @Given()
  title?: string;

  @MaxLength(CONVERSION_DESCRIPTION_MAX, { message: `description: ${CONVERSION_TEXTS.descriptionTooLong}` })
  @IsString()
  @Trimmed()
  @Given()
  description?: string;

  @IsIn(CONVERSION_METRICS) @Given() metric?: ConversionMetric;
  @IsRowId() @Given() numerator_goal_id?: number;
  /** null: all visits */
  @IsRowId() @ValidateIf((_, v) => v !== undefined && v !== null) denominator_goal_id?: number | null;
  @IsIn(CONVERSION_ACCESS) @Given() access?: ConversionAccess;
  @IsIn(ATTRIBUTION_MODELS) @Given() attribution?: AttributionModel;
  @IsIn(ATTRIBUTION_WINDOWS) @Given() attribution_window?: AttributionWindow;
  /** the caller's favourite (per user) */
  @IsBoolean() @Given() is_favorite?: boolean;
}

/** POST /api/v1.0/conversion */
export class CreateConversionDto extends ConversionFieldsDto {
  @IsRowId() project_id!: number;
  @Length(CONVERSION_TITLE_MIN, CONVERSION_TITLE_MAX, { message: `title: ${CONVERSION_TEXTS.titleTooShort}, не больше ${CONVERSION_TITLE_MAX}` })
  @IsString()
  @Trimmed()
  declare title: string;
  @IsRowId({ message: `numerator_goal_id: ${CONVERSION_TEXTS.numeratorRequired}` }) declare numerator_goal_id: number;
}

/** PUT /api/v1.0/conversion/{id} */
export class UpdateConversionDto extends ConversionFieldsDto {}

/** POST …/eventbase/{projectId}/conversions: the figures of the project's conversions over a period. */
export class ConversionsReportDto {
  @IsReportDate() date_start!: string;
  @IsReportDate() @IsNotBefore('date_start') date_end!: string;
  /** which conversions (missing: every one the caller sees, up to CONVERSIONS_A_CALL) */
  @IsOptional() @IsRowId({ each: true }) @ArrayMaxSize(CONVERSIONS_A_CALL) @IsArray() conversion_ids?: number[];
}

/** POST …/eventbase/{projectId}/conversion_table: one conversion by credited source. */
export class ConversionTableDto {
  @IsRowId() conversion_id!: number;
  @IsReportDate() date_start!: string;
  @IsReportDate() @IsNotBefore('date_start') date_end!: string;
  /** missing: the conversion's own */
  @IsOptional() @IsIn(ATTRIBUTION_MODELS) attribution?: AttributionModel;
  @IsOptional() @IsIn(ATTRIBUTION_WINDOWS) attribution_window?: AttributionWindow;
  @IsOptional() @IsInt() @Min(1) @Max(100) limit?: number;
  @IsOptional() @IsInt() @Min(0) offset?: number;
}

export const CONVERSION_TABLE_DEFAULT_LIMIT = CONVERSION_TABLE_PAGE;

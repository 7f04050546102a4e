import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import {
  CONSTRUCTOR_DIMENSIONS,
  CONSTRUCTOR_LIMITS,
  CONSTRUCTOR_MAX_DIMENSIONS,
  CONSTRUCTOR_METRICS,
  CONSTRUCTOR_TEXTS,
  CONSTRUCTOR_TITLE,
  CONSTRUCTOR_VIEW_TYPES,
  GROUPS,
  type ConstructorTemplateBody,
  type ConstructorViewType,
  type Group,
} from '@stat/schemas';
import { DimensionFilterRuleDto, DimensionFilterRules, MetricFilterRuleDto, MetricFilterRules } from '../reports/filter.dto.js';
import { IsSample } from '../reports/report-request.dto.js';
import { IsRowId } from '../http/id.pipe.js';
import { Given, HasNoProblem, IsPageOffset, Trimmed } from '../http/dto-helpers.js';

/**
 * What is wrong with a template's title (already trimmed), or null (§5: required, 3 to 255
 * characters, counted in code points as Postgres's char_length counts them).
 */
function titleProblem(title: unknown): string | null {
  if (typeof title !== 'string' || title === '') return CONSTRUCTOR_TEXTS.titleRequired;
  const length = [...title].length;
  if (length < CONSTRUCTOR_TITLE.min) return CONSTRUCTOR_TEXTS.titleTooShort;
  if (length > CONSTRUCTOR_TITLE.max) return CONSTRUCTOR_TEXTS.titleTooLong;
  return null;
}

const IsTitle = (): PropertyDecorator => HasNoProblem('isTemplateTitle', titleProblem);

export class TemplateSortDto {
  @IsIn(['title', 'date', ...CONSTRUCTOR_METRICS])
  name!: string;

  @IsIn(['asc', 'desc'])
  order!: 'asc' | 'desc';
}

/**
 * A template's query (§3 "Constructor template"): what the constructor offers now. A saved
 * template naming what the catalogue has since lost is cleaned when it is read.
 */
export class ConstructorTemplateBodyDto implements ConstructorTemplateBody {
  /** §5: saving needs at least one metric */
  @IsIn(CONSTRUCTOR_METRICS, { each: true })
  @ArrayUnique()
  @ArrayMaxSize(CONSTRUCTOR_METRICS.length)
  @ArrayNotEmpty({ message: 'body.metrics: choose at least one metric' })
  @IsArray()
  metrics!: string[];

  /** §5: saving needs at least one dimension; at most 10 */
  @IsIn(CONSTRUCTOR_DIMENSIONS, { each: true })
  @ArrayUnique()
  @ArrayMaxSize(CONSTRUCTOR_MAX_DIMENSIONS)
  @ArrayNotEmpty({ message: 'body.dimensions: choose at least one dimension' })
  @IsArray()
  dimensions!: string[];

  @IsOptional()
  @ValidateNested()
  @Type(() => TemplateSortDto)
  sort?: TemplateSortDto;

  @IsOptional()
  @IsIn(GROUPS)
  group?: Group;

  @IsIn(CONSTRUCTOR_VIEW_TYPES)
  viewType!: ConstructorViewType;

  @IsOptional()
  @IsSample()
  sample?: number;

  @IsOptional()
  @IsIn([1, 2])
  graphs?: number;

  @IsOptional()
  @DimensionFilterRules()
  dimension_filters?: DimensionFilterRuleDto[];

  @IsOptional()
  @MetricFilterRules()
  metric_filters?: MetricFilterRuleDto[];

  @IsOptional()
  @IsIn(CONSTRUCTOR_LIMITS)
  limit?: number;

  @IsOptional()
  @IsPageOffset()
  offset?: number;
}

/** POST /api/v1.0/constructor_template: `{title, body, days_in_range}`. */
export class CreateConstructorTemplateDto {
  @IsTitle()
  @Trimmed()
  title!: string;

  @ValidateNested()
  @Type(() => ConstructorTemplateBodyDto)
  @IsObject()
  body!: ConstructorTemplateBodyDto;

  /** the days between the period's start and end */
  @IsInt()
  @Min(0)
  @Max(100_000)
  days_in_range!: number;
}

/**
 * PUT /api/v1.0/constructor_template/{id}: any of title, body and days_in_range (a rename sends
 * the title alone). A field sent as null is checked, and refused, as any other value: null is no
 * title, no query and no number of days.
 */
export class UpdateConstructorTemplateDto {
  /** §3 "Save payload … and id when editing": the path's id again (ignored), another one is refused */
  @IsRowId()
  @Given()
  id?: number;

  @IsTitle()
  @Trimmed()
  @Given()
  title?: string;

  @ValidateNested()
  @Type(() => ConstructorTemplateBodyDto)
  @IsObject()
  @Given()
  body?: ConstructorTemplateBodyDto;

  @IsInt()
  @Min(0)
  @Max(100_000)
  @Given()
  days_in_range?: number;
}

/** GET /api/v1.0/user/constructor_templates: a page of the user's templates, found by title. */
export class ConstructorTemplateListQueryDto {
  @IsOptional()
  @Type(() => Number)
  @IsPageOffset()
  offset?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  /** part of the title, any case */
  @IsOptional()
  @IsString()
  @MaxLength(CONSTRUCTOR_TITLE.max)
  search?: string;
}

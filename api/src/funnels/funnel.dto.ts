import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsInt, IsNumber, IsObject, IsOptional, IsString, Max, MaxLength, Min, MinLength, ValidateBy, ValidateNested } from 'class-validator';
import {
  FILTER_LIMITS,
  FUNNEL_METRICS,
  FUNNEL_STEP_GOALS_MAX,
  FUNNEL_STEPS_MAX,
  FUNNEL_STEPS_MIN,
  FUNNEL_TEXTS,
  FUNNEL_TITLE_MAX,
  FUNNELS_PAGE,
  GOAL_CONDITION_KEYS,
  GOAL_TEXTS,
  type FunnelInput,
  type FunnelMetric,
  type FunnelStepInput,
} from '@stat/schemas';
import { IsRowId } from '../http/id.pipe.js';
import { queryInt } from '../projects/project.dto.js';
import { DimensionFilterRuleDto } from '../reports/filter.dto.js';
import { IsNotBefore, IsReportDate } from '../reports/report-request.dto.js';
import { IsPageOffset, Trimmed } from '../http/dto-helpers.js';


// A field's checks run from the decorator nearest to it upwards; the pipe stops at a field's
// first failure, so the most basic check is written last.

/**
 * A step's goals as ids: a goal sent as a step read from the api holds it, `{goal_id,
 * goal_title}` (nothing else in it, the title a string), becomes its id; the title is the goal's
 * own, not the step's to change. Anything else is left for the checks to refuse.
 */
const StepGoalIds = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => (Array.isArray(value) ? value.map((goal: unknown) => readGoalId(goal) ?? goal) : value));

function readGoalId(goal: unknown): unknown {
  if (typeof goal !== 'object' || goal === null || Array.isArray(goal)) return undefined;
  const { goal_id, goal_title, ...rest } = goal as Record<string, unknown>;
  const fits = Object.keys(rest).length === 0 && goal_id !== undefined && (goal_title === undefined || typeof goal_title === 'string');
  return fits ? goal_id : undefined;
}

/**
 * A step (§3 "Step"): its title and the goals any of which reaches it; numbered by its place
 * (§4: "renumbered on save"), so the `step_number` of a step read back is taken and ignored.
 */
export class FunnelStepDto implements FunnelStepInput {
  @Max(FUNNEL_STEPS_MAX)
  @Min(1)
  @IsInt()
  @IsOptional()
  step_number?: number;

  @MaxLength(FUNNEL_TITLE_MAX, { message: FUNNEL_TEXTS.titleTooLong })
  @MinLength(1, { message: FUNNEL_TEXTS.required })
  @IsString({ message: FUNNEL_TEXTS.required })
  @Trimmed()
  step_title!: string;

  /** goal ids, or `{goal_id, goal_title}` as the funnel's GET gives them (made ids on reading) */
  @IsRowId({ each: true, message: 'goals: each must be a goal id, or {goal_id, goal_title} as the funnel gives it' })
  @ArrayMaxSize(FUNNEL_STEP_GOALS_MAX)
  @ArrayMinSize(1, { message: FUNNEL_TEXTS.stepNeedsGoal })
  @IsArray({ message: FUNNEL_TEXTS.stepNeedsGoal })
  @StepGoalIds()
  goals!: number[];
}

/** POST /api/v1.0/{projectId}/funnel (and PUT …/funnel/{id}): the whole funnel. */
export class FunnelDto implements FunnelInput {
  @MaxLength(FUNNEL_TITLE_MAX, { message: FUNNEL_TEXTS.titleTooLong })
  @MinLength(1, { message: FUNNEL_TEXTS.required })
  @IsString({ message: FUNNEL_TEXTS.required })
  @Trimmed()
  title!: string;

  @ValidateNested({ each: true })
  @Type(() => FunnelStepDto)
  @IsObject({ each: true, message: 'each step must be an object' })
  @ArrayMaxSize(FUNNEL_STEPS_MAX, { message: FUNNEL_TEXTS.tooManySteps })
  @ArrayMinSize(FUNNEL_STEPS_MIN, { message: FUNNEL_TEXTS.tooFewSteps })
  @IsArray({ message: FUNNEL_TEXTS.tooFewSteps })
  steps!: FunnelStepDto[];
}

/** PUT …/funnel/{id}: the whole funnel, as POST's, or as GET answered it (its `id` the path's). */
export class UpdateFunnelDto extends FunnelDto implements FunnelInput {
  @IsRowId()
  @IsOptional()
  id?: number;
}

/** GET /api/v1.0/{projectId}/funnels. */
export class FunnelListQueryDto {
  @IsOptional() @queryInt() @IsInt() @Min(1) @Max(FUNNELS_PAGE) limit?: number;
  @IsOptional() @queryInt() @IsPageOffset() offset?: number;
  @IsOptional() @IsString() @MaxLength(255) search?: string;
}

/** The report's filters name dimensions of events only (as goals do). */
const FiltersOnEvents = () =>
  ValidateBy({
    name: 'filtersOnEvents',
    validator: {
      validate: (rules) => !Array.isArray(rules) || rules.every((r: { key?: unknown } | null) => typeof r?.key !== 'string' || GOAL_CONDITION_KEYS.includes(r.key)),
      defaultMessage: () => GOAL_TEXTS.conditionEventOnly,
    },
  });

/** POST /api/report/v1.0/eventbase/{projectId}/funnel (§7). */
export class FunnelReportDto {
  @IsRowId()
  funnel_id!: number;

  @IsReportDate()
  date_start!: string;

  @IsReportDate()
  @IsNotBefore('date_start')
  date_end!: string;

  @IsOptional()
  @IsIn(FUNNEL_METRICS, { each: true })
  @ArrayMinSize(1)
  @IsArray()
  metrics?: FunnelMetric[];

  @IsOptional()
  @ValidateNested({ each: true })
  @Type(() => DimensionFilterRuleDto)
  @FiltersOnEvents()
  @IsObject({ each: true, message: 'each rule must be an object' })
  @ArrayMaxSize(FILTER_LIMITS.rules)
  @IsArray()
  dimension_filters?: DimensionFilterRuleDto[];

  /** share of visitors to read, (0, 1]; 1 by default (§7) */
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0.0001)
  @Max(1)
  sample?: number;
}

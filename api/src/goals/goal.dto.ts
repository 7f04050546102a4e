import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  Min,
  Max,
  ValidateBy,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import {
  FILTERABLE_DIMENSIONS,
  GOAL_ACCESS,
  GOAL_CONDITION_KEYS,
  GOAL_CONDITIONS_MAX,
  GOAL_DESCRIPTION_MAX,
  GOAL_TEXTS,
  GOALS_LIST_PAGE,
  goalConditionFilled,
  goalTitleProblem,
  type GoalAccess,
  type GoalBody,
} from '@stat/schemas';
import { IsRowId } from '../http/id.pipe.js';
import { queryBoolean, queryInt } from '../projects/project.dto.js';
import { DimensionFilterRuleDto } from '../reports/filter.dto.js';
import { Given, HasNoProblem, IsPageOffset, QueryId, Trimmed } from '../http/dto-helpers.js';
import { IsReportDate, IsReportDateEnd } from '../reports/report-request.dto.js';


/** One text per title: required, at least 3, at most 255 characters (§5). */
const IsGoalTitle = (): PropertyDecorator => HasNoProblem('isGoalTitle', goalTitleProblem);

/** Every condition has a key, an operator and a value that is not empty (§5). */
const ConditionsFilled = () =>
  ValidateBy({
    name: 'conditionsFilled',
    validator: {
      validate: (rules) => !Array.isArray(rules) || rules.every((r: unknown) => typeof r === 'object' && r !== null && goalConditionFilled(r)),
      defaultMessage: () => GOAL_TEXTS.conditionsIncomplete,
    },
  });

/** Every condition names a dimension of single events (the visits' own cannot mark an event). */
const ConditionsOnEvents = () =>
  ValidateBy({
    name: 'conditionsOnEvents',
    validator: {
      validate: (rules) =>
        !Array.isArray(rules) ||
        rules.every((r: { key?: unknown } | null) => typeof r?.key !== 'string' || !FILTERABLE_DIMENSIONS.includes(r.key) || GOAL_CONDITION_KEYS.includes(r.key)),
      defaultMessage: () => GOAL_TEXTS.conditionEventOnly,
    },
  });



// A field's checks run from the decorator nearest to it upwards, and the pipe stops at a
// field's first failure: the most basic check is written last.

/** A goal's conditions (§3 "Goal": body.dimension_filters): the engine's rules, all met by one event. */
export class GoalBodyDto implements GoalBody {
  @ValidateNested({ each: true })
  @Type(() => DimensionFilterRuleDto)
  @ConditionsOnEvents()
  @ConditionsFilled()
  @ArrayMaxSize(GOAL_CONDITIONS_MAX)
  @ArrayMinSize(1, { message: GOAL_TEXTS.conditionsRequired })
  @IsArray({ message: GOAL_TEXTS.conditionsRequired })
  dimension_filters!: DimensionFilterRuleDto[];
}

/** POST /api/v1.0/goal: a new goal of a project. */
export class CreateGoalDto {
  @IsRowId()
  project_id!: number;

  @IsGoalTitle()
  @Trimmed()
  title!: string;

  @MaxLength(GOAL_DESCRIPTION_MAX, { message: GOAL_TEXTS.descriptionTooLong })
  @IsString()
  @Trimmed()
  @Given()
  description?: string;

  @IsIn(GOAL_ACCESS)
  @Given()
  access?: GoalAccess;

  @IsBoolean()
  @Given()
  is_protected?: boolean;

  @IsBoolean()
  @Given()
  is_td_sending?: boolean;

  /** Conditions; left out when the goal is made from an autogoal (the template's are taken). */
  @ValidateNested()
  @Type(() => GoalBodyDto)
  @IsObject()
  @ValidateIf((o: CreateGoalDto, value) => value !== undefined || o.goal_template_id === undefined || o.goal_template_id === null)
  body?: GoalBodyDto;

  @IsRowId()
  @ValidateIf((_, value) => value !== undefined && value !== null)
  goal_template_id?: number | null;
}

/** PUT /api/v1.0/goal/{id}: what changes, any of the fields (at least one). */
export class UpdateGoalDto {
  @IsGoalTitle()
  @Trimmed()
  @Given()
  title?: string;

  @MaxLength(GOAL_DESCRIPTION_MAX, { message: GOAL_TEXTS.descriptionTooLong })
  @IsString()
  @Trimmed()
  @Given()
  description?: string;

  @IsIn(GOAL_ACCESS)
  @Given()
  access?: GoalAccess;

  @IsBoolean()
  @Given()
  is_protected?: boolean;

  @IsBoolean()
  @Given()
  is_td_sending?: boolean;

  @ValidateNested()
  @Type(() => GoalBodyDto)
  @IsObject()
  @Given()
  body?: GoalBodyDto;
}

/** GET /api/v1.0/user/goals: one project's goals, searched and paged. */
export class GoalListQueryDto {
  @IsRowId()
  @QueryId()
  project_id!: number;

  @IsOptional() @queryInt() @IsInt() @Min(1) @Max(GOALS_LIST_PAGE) limit?: number;
  @IsOptional() @queryInt() @IsPageOffset() offset?: number;
  @IsOptional() @IsString() @MaxLength(255) search?: string;
  /** public goals only */
  @IsOptional() @queryBoolean() @IsBoolean() common_only?: boolean;
  /** besides one's own goals, the public ones of others (the page's switch) */
  @IsOptional() @queryBoolean() @IsBoolean() show_common?: boolean;
  /** deleted goals too */
  @IsOptional() @queryBoolean() @IsBoolean() show_deleted?: boolean;
}

/** POST /api/v1.0/goals: the goals of a project with these ids (those the caller sees). */
export class GoalsByIdsDto {
  @IsRowId()
  project_id!: number;

  @IsRowId({ each: true })
  @ArrayMaxSize(GOALS_LIST_PAGE)
  @IsArray()
  ids!: number[];
}

/** GET /api/v1.0/autogoals: the templates, searched and paged; with a project, which it has made. */
export class AutogoalListQueryDto {
  @IsOptional() @IsRowId() @QueryId() project_id?: number;
  @IsOptional() @queryInt() @IsInt() @Min(1) @Max(GOALS_LIST_PAGE) limit?: number;
  @IsOptional() @queryInt() @IsPageOffset() offset?: number;
  @IsOptional() @IsString() @MaxLength(255) search?: string;
}

/**
 * POST /api/report/v1.0/eventbase/{projectId}/goals: how many times each of these goals was
 * reached, in how many visits and by how many visitors, over the period (the goals page's table).
 */
export class GoalCountsDto {
  /** the project's goals the caller sees, at most a list page of them, each once */
  @IsRowId({ each: true })
  @ArrayUnique()
  @ArrayMaxSize(GOALS_LIST_PAGE)
  @ArrayMinSize(1)
  @IsArray()
  goal_ids!: number[];

  @IsReportDate()
  date_start!: string;

  @IsReportDateEnd()
  date_end!: string;
}

import { Type } from 'class-transformer';
import { applyDecorators } from '@nestjs/common';
import { ArrayMaxSize, IsArray, IsIn, IsNumber, IsObject, IsOptional, IsString, MaxLength, ValidateBy, ValidateNested } from 'class-validator';
import {
  DIMENSION_OPERATORS,
  FILTER_LIMITS,
  FILTERABLE_DIMENSIONS,
  filterRuleProblem,
  isFilterNumber,
  METRIC_OPERATORS,
  METRICS,
  type DimensionFilterRule,
  type DimensionOperator,
  type FilterValue,
  type Metric,
  type MetricFilterRule,
  type MetricOperator,
} from '@stat/schemas';

export { FILTERABLE_DIMENSIONS };

/**
 * The shared check of a rule (schemas, `filterRuleProblem`) as the check of one of its fields:
 * it fails when the rule's first problem is that field's. An unknown key or operator is left to
 * `IsIn`, which names it (and gives the OpenAPI document its list).
 */
const FitsItsDimension = (field: 'op' | 'value'): PropertyDecorator =>
  ValidateBy({
    name: `${field}FitsDimension`,
    validator: {
      validate: (_value, args) => {
        const rule = (args?.object ?? {}) as { op?: unknown };
        const problem = filterRuleProblem(rule);
        return problem === null || problem.field !== field || (field === 'op' && !(DIMENSION_OPERATORS as readonly unknown[]).includes(rule.op));
      },
      defaultMessage: (args) => {
        const problem = filterRuleProblem((args?.object ?? {}) as object);
        // Asked without a rule (the OpenAPI document describes the check): what it checks.
        if (problem === null || problem.field !== field) return field === 'op' ? 'op must be one that the type of the dimension takes' : "value must be of the operator's shape, each of the dimension's type";
        return problem.message;
      },
    },
  });

export class FilterExtraDto {
  @IsOptional()
  @IsString()
  @MaxLength(100)
  eventClass?: string;
}

/** A rule of dimension_filters (§3 "Filter rule"): key from the catalogue, operator, value. */
export class DimensionFilterRuleDto implements DimensionFilterRule {
  @IsIn(FILTERABLE_DIMENSIONS, { message: 'key must be a dimension of the catalogue that the service collects' })
  key!: string;

  @FitsItsDimension('op')
  @IsIn(DIMENSION_OPERATORS)
  op!: DimensionOperator;

  /** of the operator's shape, each value of the dimension's type (a date, a number) */
  @FitsItsDimension('value')
  value!: FilterValue;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => FilterExtraDto)
  extra?: FilterExtraDto;
}

/**
 * A list of dimension filter rules as the report bodies carry them (`filters`,
 * `dimension_filters`): at most FILTER_LIMITS.rules, each a {@link DimensionFilterRuleDto}.
 * One list check for every body that filters by dimensions.
 */
export const DimensionFilterRules = (): PropertyDecorator =>
  // Applied in this order, as the same decorators stacked above a field are (the nearest first).
  applyDecorators(Type(() => DimensionFilterRuleDto), ValidateNested({ each: true }), ArrayMaxSize(FILTER_LIMITS.rules), IsArray());

/** A rule of metric_filters: compared with each row's metric after grouping. */
export class MetricFilterRuleDto implements MetricFilterRule {
  @IsIn(METRICS, { message: 'key must be a metric of the catalogue' })
  key!: Metric;

  @IsIn(METRIC_OPERATORS)
  op!: MetricOperator;

  @ValidateBy(
    { name: 'isFilterNumber', validator: { validate: (value) => typeof value !== 'number' || isFilterNumber(value) } },
    { message: `value must be a number from -${FILTER_LIMITS.number} to ${FILTER_LIMITS.number}` },
  )
  @IsNumber({ allowNaN: false, allowInfinity: false })
  value!: number;
}

/**
 * A list of metric filter rules as the report bodies carry them (`metric_filters`): at most
 * FILTER_LIMITS.rules, each a {@link MetricFilterRuleDto}.
 */
export const MetricFilterRules = (): PropertyDecorator =>
  // Applied in this order, as the same decorators stacked above a field are (the nearest first).
  applyDecorators(Type(() => MetricFilterRuleDto), ValidateNested({ each: true }), ArrayMaxSize(FILTER_LIMITS.rules), IsArray());

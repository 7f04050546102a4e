import { Type } from 'class-transformer';
import { IsIn, IsNumber, IsObject, IsOptional, IsString, MaxLength, ValidateBy, ValidateNested, type ValidationArguments } from 'class-validator';
import {
  DIMENSION_OPERATORS,
  FILTER_LIMITS,
  FILTERABLE_DIMENSIONS,
  isValueFor,
  LIST_OPERATORS,
  METRIC_OPERATORS,
  METRICS,
  type DimensionFilterRule,
  type DimensionOperator,
  type FilterValue,
  type Metric,
  type MetricFilterRule,
  type MetricOperator,
} from '@stat/schemas';

export { FILTERABLE_DIMENSIONS, isValueFor };

function valueMessage(args: ValidationArguments): string {
  const op = (args.object as { op?: unknown }).op;
  if ((LIST_OPERATORS as readonly unknown[]).includes(op)) {
    return `value of ${String(op)} must be a list of 1 to ${FILTER_LIMITS.values} strings or numbers of at most ${FILTER_LIMITS.valueLength} characters`;
  }
  if (op === 'range') return 'value of range must be [from, to]';
  return `value must be a string of at most ${FILTER_LIMITS.valueLength} characters or a number`;
}

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

  @IsIn(DIMENSION_OPERATORS)
  op!: DimensionOperator;

  @ValidateBy({ name: 'isValueForOperator', validator: { validate: (value, args) => isValueFor((args?.object as { op?: unknown }).op, value), defaultMessage: (args) => valueMessage(args!) } })
  value!: FilterValue;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => FilterExtraDto)
  extra?: FilterExtraDto;
}

/** A rule of metric_filters: compared with each row's metric after grouping. */
export class MetricFilterRuleDto implements MetricFilterRule {
  @IsIn(METRICS, { message: 'key must be a metric of the catalogue' })
  key!: Metric;

  @IsIn(METRIC_OPERATORS)
  op!: MetricOperator;

  @IsNumber({ allowNaN: false, allowInfinity: false })
  value!: number;
}

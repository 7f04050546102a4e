import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayUnique, IsArray, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import {
  AUDIENCE_DIMENSIONS,
  GROUPS,
  MAX_DASHBOARD_EVENTS,
  REALTIME_LIMITS,
  REALTIME_SECTIONS,
  TRAFFIC_SOURCE_GROUPS,
  type AudienceDimension,
  type Group,
  type RealtimeRequest,
  type RealtimeSection,
  type RealtimeWidgetParams,
  type TrafficType,
} from '@stat/schemas';
import { PERIOD_DETAILS, type PeriodDetail } from '@stat/schemas/period';
import { DimensionFilterRuleDto, DimensionFilterRules, MetricFilterRuleDto, MetricFilterRules } from '../reports/filter.dto.js';
import { IsReportDate, IsReportDateEnd, IsSample } from '../reports/report-request.dto.js';

/** One widget's parameters (§7 `widget_params`): which metrics, rows, dimension or source group. */
export class RealtimeWidgetParamsDto implements RealtimeWidgetParams {
  /** the widget's metrics (catalogue names); the events widget: names of events to draw, at most 5 */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_DASHBOARD_EVENTS, { message: `widget_params: at most ${MAX_DASHBOARD_EVENTS} metrics or events` })
  @ArrayUnique()
  @IsString({ each: true })
  @MaxLength(200, { each: true })
  metrics?: string[];

  /** rows, up to the widget's own limit (tables 50, traffic sources 5, events 30) */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(REALTIME_LIMITS.table)
  limit?: number;

  /** audience: gender, age_tns or geo_country */
  @IsOptional()
  @IsIn(AUDIENCE_DIMENSIONS.map((a) => a.dimension))
  dimension?: AudienceDimension;

  /** traffic sources: the systems of one source group instead of the traffic types */
  @IsOptional()
  @IsIn(TRAFFIC_SOURCE_GROUPS.map((g) => g.type))
  traffic_type?: TrafficType;
}

/** `widget_params`: each section's own. */
export class RealtimeWidgetsDto implements Partial<Record<RealtimeSection, RealtimeWidgetParams>> {
  @IsOptional() @ValidateNested() @Type(() => RealtimeWidgetParamsDto) current_user_count?: RealtimeWidgetParamsDto;
  @IsOptional() @ValidateNested() @Type(() => RealtimeWidgetParamsDto) active_pages?: RealtimeWidgetParamsDto;
  @IsOptional() @ValidateNested() @Type(() => RealtimeWidgetParamsDto) traffic_sources?: RealtimeWidgetParamsDto;
  @IsOptional() @ValidateNested() @Type(() => RealtimeWidgetParamsDto) page_views?: RealtimeWidgetParamsDto;
  @IsOptional() @ValidateNested() @Type(() => RealtimeWidgetParamsDto) audience?: RealtimeWidgetParamsDto;
  @IsOptional() @ValidateNested() @Type(() => RealtimeWidgetParamsDto) platforms?: RealtimeWidgetParamsDto;
  @IsOptional() @ValidateNested() @Type(() => RealtimeWidgetParamsDto) events?: RealtimeWidgetParamsDto;
  @IsOptional() @ValidateNested() @Type(() => RealtimeWidgetParamsDto) utms?: RealtimeWidgetParamsDto;
}

/** The body of `POST /api/report/v1.0/eventbase/{projectId}/realtime` (specification 001, §7). */
export class RealtimeRequestDto implements RealtimeRequest {
  /** YYYY-MM-DD, or today, yesterday, Ndays; the dashboard's live mode is today */
  @IsReportDate()
  date_start!: string;

  @IsReportDateEnd()
  date_end!: string;

  /** the graphs' buckets; must fit the period (a day: minute, five_minute or hour) */
  @IsIn(GROUPS)
  group!: Group;

  /** share of visitors to read, (0, 1] (§9: default 1; today is always read whole) */
  @IsOptional()
  @IsSample()
  sample?: number;

  @IsOptional()
  @DimensionFilterRules()
  filters?: DimensionFilterRuleDto[];

  @IsOptional()
  @DimensionFilterRules()
  dimension_filters?: DimensionFilterRuleDto[];

  /** rules on a widget's first metric, applied to its rows */
  @IsOptional()
  @MetricFilterRules()
  metric_filters?: MetricFilterRuleDto[];

  /** a period of today only: the last 5, 30, 60, 120 or 240 minutes; `today` or missing: the whole period */
  @IsOptional()
  @IsIn(PERIOD_DETAILS)
  period?: PeriodDetail;

  /** the sections wanted; missing: all */
  @IsOptional()
  @IsArray()
  @ArrayUnique()
  @IsIn(REALTIME_SECTIONS, { each: true })
  sections?: RealtimeSection[];

  @IsOptional()
  @ValidateNested()
  @Type(() => RealtimeWidgetsDto)
  widget_params?: RealtimeWidgetsDto;
}

import { BadRequestException, Body, Controller, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateBy } from 'class-validator';
import { FILTER_VALUES_PAGE, hasRowsBelow, moscowDate, REPORT_DEFINITIONS, type Dimension, type DimensionFilterRule, type FilterOption } from '@stat/schemas';
import { resolveDate } from '@stat/schemas/period';
import { ProjectIdPipe } from '../common/project-id.pipe.js';
import { IsPageOffset } from '../http/dto-helpers.js';
import { ok, type Envelope } from '../common/envelope.js';
import { validated } from '../common/validated.js';
import { ProjectView, ReadOnlyPost } from '../auth/policy.js';
import { CLOCK, type Clock } from '../tokens.js';
import { compileTable, type Plan, scopeOf, sourceOf, ReportEngine, normalValue, ReportAnswers, showsTitle } from '../engine/index.js';
import { ApiReportLimit, envelope, page } from '../openapi/answers.js';
import { FILTERABLE_DIMENSIONS } from './filter.dto.js';

/** §9: a dynamic filter's page of values; the event list's. */
const FILTER_PAGE = FILTER_VALUES_PAGE.dimension;
const EVENTS_PAGE = FILTER_VALUES_PAGE.events;

/** Event classes kept out of the event list (§3 "Event tree entry": rec and tech are hidden). */
const HIDDEN_EVENT_CLASSES = ['rec', 'tech'];

/** The values above the deepest level of any report's tree (the URL tree's pages: its sections). */
const MAX_PARENTS = Math.max(...Object.values(REPORT_DEFINITIONS).map((r) => r.drilldown.length - 1));

const isPathValue = (v: unknown): boolean => (typeof v === 'string' && v.length <= 2000) || (typeof v === 'number' && Number.isFinite(v));

/** The body of the filter dialog's value calls (§7; every field has the specification's default). */
export class FilterValuesRequestDto {
  /** default today; YYYY-MM-DD, today, yesterday or Ndays */
  @IsOptional()
  @IsString()
  @MaxLength(10)
  date_start?: string;

  @IsOptional()
  @IsString()
  @MaxLength(10)
  date_end?: string;

  /** accepted for the specification's body; values do not depend on it */
  @IsOptional()
  @IsIn(['minute', 'five_minute', 'hour', 'day', 'week', 'month'])
  group?: string;

  @IsOptional()
  @Type(() => Number)
  @IsPageOffset()
  offset?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(EVENTS_PAGE)
  limit?: number;

  /** the values above, for a value of a tree (a region under its country) */
  @IsOptional()
  @ValidateBy({ name: 'isParents', validator: { validate: (v: unknown) => Array.isArray(v) && v.length <= MAX_PARENTS && v.every(isPathValue) } }, { message: `parents must be a list of at most ${MAX_PARENTS} values` })
  parents?: (string | number)[];

  /** values containing this text, case ignored (§5: the dialog's search) */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  search?: string;
}

/** A value the filter dialog offers (the contract's type). */
export type FilterValue = FilterOption;

/**
 * The path of a filter's values: the dimensions above it in the first report whose drill-down
 * holds it at the depth of the given parents (a city under its country and region).
 */
function pathOf(name: Dimension, depth: number): Dimension[] | undefined {
  if (depth === 0) return [name];
  for (const report of Object.values(REPORT_DEFINITIONS)) {
    if (report.drilldown[depth] === name) return report.drilldown.slice(0, depth + 1) as Dimension[];
  }
  return undefined;
}

/** The next level of a value, for `can_be_expanded`. */
function childOf(path: readonly Dimension[]): Dimension | undefined {
  for (const report of Object.values(REPORT_DEFINITIONS)) {
    if (path.every((d, i) => report.drilldown[i] === d)) return report.drilldown[path.length];
  }
  return undefined;
}

// Values of a project's traffic: the same access as its reports.
@Controller('api/report/v1.0/eventbase/:projectId/filter')
@ProjectView()
@ReadOnlyPost()
@ApiReportLimit()
@ApiOkResponse({ schema: envelope(page('FilterValue')) })
export class FilterValuesController {
  constructor(
    @Inject(ReportEngine) private readonly engine: ReportEngine,
    @Inject(ReportAnswers) private readonly reports: ReportAnswers,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** §7 filter/events: the event classes, and a class's event names (parents: [class]), 200 a page. */
  @Post('events')
  @HttpCode(200)
  async events(@Param('projectId', ProjectIdPipe) projectId: number, @Body(validated(FilterValuesRequestDto)) body: FilterValuesRequestDto): Promise<Envelope<{ data: FilterValue[]; meta: { total: number; offset: number } }>> {
    const parents = body.parents ?? [];
    if (parents.length > 1) throw new BadRequestException('parents: events have a class and names under it');
    const where: DimensionFilterRule[] = [{ key: 'event_class', op: 'exclude', value: ['', ...HIDDEN_EVENT_CLASSES] }];
    return ok(await this.values(projectId, ['event_class', 'event_name'].slice(0, parents.length + 1) as Dimension[], parents, body, where, EVENTS_PAGE, ['event_class', 'event_name']));
  }

  /** §7 filter/{filterName}: the values of a dimension that the period has, by visits, 50 a page. */
  @Post(':filterName')
  @HttpCode(200)
  async dimension(
    @Param('projectId', ProjectIdPipe) projectId: number,
    @Param('filterName') filterName: string,
    @Body(validated(FilterValuesRequestDto)) body: FilterValuesRequestDto,
  ): Promise<Envelope<{ data: FilterValue[]; meta: { total: number; offset: number } }>> {
    if (!FILTERABLE_DIMENSIONS.includes(filterName)) throw new BadRequestException(`filterName: ${filterName} is not a dimension the service collects`);
    const parents = body.parents ?? [];
    const path = pathOf(filterName as Dimension, parents.length);
    if (path === undefined) throw new BadRequestException(`parents: ${filterName} has no values under ${parents.length} parents`);
    return ok(await this.values(projectId, path, parents, body, [], FILTER_PAGE));
  }

  private async values(
    projectId: number,
    path: readonly Dimension[],
    parents: readonly (string | number)[],
    body: FilterValuesRequestDto,
    where: DimensionFilterRule[],
    page: number,
    tree?: readonly Dimension[],
  ): Promise<{ data: FilterValue[]; meta: { total: number; offset: number } }> {
    const today = moscowDate(this.clock());
    const dateStart = resolveDate(body.date_start ?? 'today', today);
    const dateEnd = resolveDate(body.date_end ?? 'today', today);
    if (dateStart === null || dateEnd === null || dateEnd < dateStart) throw new BadRequestException('date_start and date_end must be a period that has begun, written YYYY-MM-DD, today, yesterday or Ndays');
    const name = path[path.length - 1]!;
    const filters = [...where];
    // Values shown by a name (a place, a source, a device type) are searched by the name shown, or
    // the code, among all the level's values (a level's places are some thousands at most); the
    // others by their text, in SQL.
    const search = body.search ?? '';
    const byTitle = search !== '' && showsTitle(name);
    if (search !== '' && !byTitle) filters.push({ key: name, op: 'like', value: `@*${search.replace(/\*/g, '')}*` });
    const plan: Plan = {
      projectId,
      dateStart,
      dateEnd,
      source: sourceOf(path),
      scope: scopeOf(path),
      sample: 1,
      metrics: ['visits'],
      path,
      parents,
      filters,
      metricFilters: [],
      skipEmpty: true,
    };
    const offset = body.offset ?? 0;
    const limit = body.limit ?? page;
    const rows = await this.engine.rows(compileTable(plan, { sortBy: 'visits', order: 'desc', ...(byTitle ? { offset: 0 } : { limit, offset }) }), 'filter_values');
    const next = tree ? tree[path.length] : childOf(path);
    const valued = rows.map((r) => ({ value: normalValue(r.value, name), visits: Number(r.m0) }));
    const titles = await this.reports.titles(name, valued.map((v) => v.value));
    const data = valued.map((v) => ({ ...v, title: titles.get(String(v.value)) ?? String(v.value), can_be_expanded: hasRowsBelow(name, v.value, next) }));
    if (!byTitle) return { data, meta: { total: Number(rows[0]?.total_rows ?? 0), offset } };
    const needle = search.toLocaleLowerCase('ru');
    const found = data.filter((v) => v.title.toLocaleLowerCase('ru').includes(needle) || String(v.value).toLocaleLowerCase('ru').includes(needle));
    return { data: found.slice(offset, offset + limit), meta: { total: found.length, offset } };
  }
}

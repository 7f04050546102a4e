import { applyDecorators } from '@nestjs/common';
import { ApiResponse, type ReferenceObject, type SchemaObject } from '@nestjs/swagger';
import {
  METRICS,
  REALTIME_SECTIONS,
  type ConstructorTemplate,
  type ConstructorTemplateBody,
  type ConstructorTemplateList,
  type CurrentUsers,
  type FilterOption,
  type GeoPlace,
  type GraphLine,
  type GraphPoint,
  type GraphResult,
  type HealthReport,
  type ReadinessReport,
  type RealtimeResult,
  type RatingMeta,
  type RealtimeTable,
  type TableMeta,
  type TableResult,
  type TableRow,
} from '@stat/schemas';
import type { EventbaseLatency } from '@stat/schemas/period';
import { MEMORY_LIMIT_TEXT } from '../engine/index.js';
import { STORE_NOT_READY_MESSAGE, type ErrorBody } from '../common/error.filter.js';

/*
 * The answers of the api as OpenAPI schemas. The types are the contract (schemas/src/reports/
 * api.ts and the api's own); each schema here is checked against its type by the compiler, so
 * a field added to the type and not described here fails the build.
 */

type Schema = SchemaObject | ReferenceObject;
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];

/** An object schema that names every field of `T`, and as required the fields `T` requires. */
function described<T>(properties: { [K in keyof T]-?: Schema }, required: readonly RequiredKeys<T>[]): SchemaObject {
  return { type: 'object', properties, required: [...required] as string[] };
}

const ref = (name: string): ReferenceObject => ({ $ref: `#/components/schemas/${name}` });
const int: SchemaObject = { type: 'integer' };
const text: SchemaObject = { type: 'string' };
const metricNames: SchemaObject = { type: 'array', items: { type: 'string', enum: [...METRICS] } };
const metricValues: SchemaObject = { type: 'array', items: { type: 'number' }, description: 'one value per metric, in the order of `metrics`' };
const nullable = (schema: SchemaObject): SchemaObject => ({ ...schema, nullable: true });

const tableRow = described<TableRow>(
  {
    id: { ...text, description: 'the JSON text of the row’s path; a date for rows of time buckets' },
    parent_id: nullable(text),
    level: int,
    can_be_expanded: { type: 'boolean' },
    title: text,
    extra: {
      type: 'object',
      properties: { title: text, value: { oneOf: [text, { type: 'number' }] }, public_stats: { type: 'boolean', description: 'a rating row: its site shows its statistics to everyone' } },
      required: ['title'],
    },
    ts: { ...int, description: 'rows of time buckets: the bucket’s start, epoch seconds' },
    metrics: metricValues,
  },
  ['id', 'parent_id', 'level', 'can_be_expanded', 'title', 'extra', 'metrics'],
);

const wholeReason: SchemaObject = {
  type: 'string',
  enum: ['today', 'exact', 'period'],
  description: 'set when a sample was asked and all was read: today alone, an exact report (rollups), a small period',
};

const tableResult = described<TableResult>(
  {
    data: { type: 'array', items: ref('TableRow') },
    metrics: metricNames,
    all_metrics: metricNames,
    totals: metricValues,
    sort: { type: 'object', properties: { name: text, order: { type: 'string', enum: ['asc', 'desc'] } }, required: ['name', 'order'] },
    meta: ref('TableMeta'),
  },
  ['data', 'metrics', 'all_metrics', 'totals', 'sort', 'meta'],
);

const ratingMeta = described<RatingMeta>(
  {
    category_id: int,
    categories: { type: 'array', items: int, description: 'the categories the site is rated in' },
    position: { ...int, description: 'the site’s own position in the category over the period (0: not placed)' },
    date_start: text,
    date_end: text,
  },
  ['category_id', 'categories', 'position', 'date_start', 'date_end'],
);

const tableMeta = described<TableMeta>(
  {
    total: { ...int, description: 'rows of the level' },
    offset: int,
    sample: { type: 'number', description: 'the share of visitors read (1: all)' },
    whole: wholeReason,
    not_collected: { ...text, description: 'the report needs data this service does not collect' },
    rating: ratingMeta,
    leader: { ...nullable({ allOf: [ref('TableRow')] }), description: 'rating: the category’s first site (null: the category has none)' },
    pinned: { ...nullable({ allOf: [ref('TableRow')] }), description: 'rating: the site’s own row, whatever the page and the sort (null: not placed)' },
    common_total: { ...int, description: 'rating: the sites the category rates in all' },
  },
  ['total', 'offset', 'sample'],
);

const graphPoint = described<GraphPoint>({ ts: int, date: text, metrics: metricValues }, ['ts', 'date', 'metrics']);

const graphLine = described<GraphLine>(
  { id: { ...text, description: 'the table row’s id, or `total`' }, title: text, points: { type: 'array', items: ref('GraphPoint') } },
  ['id', 'title', 'points'],
);

const graphResult = described<GraphResult>(
  { metrics: metricNames, data: { type: 'array', items: ref('GraphLine') }, totals: metricValues, sample: { type: 'number' }, whole: wholeReason },
  ['metrics', 'data', 'totals', 'sample'],
);

const filterValue = described<FilterOption>(
  { value: { oneOf: [text, { type: 'number' }] }, title: text, visits: int, can_be_expanded: { type: 'boolean' } },
  ['value', 'title', 'visits', 'can_be_expanded'],
);

const geoPlace = described<GeoPlace>(
  { id: int, name: text, kind: { type: 'string', enum: ['country', 'area', 'city'] }, parent_id: int },
  ['id', 'name', 'kind', 'parent_id'],
);

const eventbaseLatency = described<EventbaseLatency>(
  { start: nullable({ ...text, format: 'date' }), end: nullable({ ...text, format: 'date' }), end_timestamp: nullable(int) },
  ['start', 'end', 'end_timestamp'],
);

const errorBody = described<ErrorBody>(
  {
    responseStatus: int,
    errors: {
      type: 'object',
      properties: {
        message: text,
        fields: { type: 'object', additionalProperties: { type: 'array', items: text }, description: 'form calls: the texts of each bad field' },
        request_id: { ...text, description: '500 only: names the logged fault' },
      },
      required: ['message'],
    },
  },
  ['responseStatus', 'errors'],
);

const healthReport = described<HealthReport>(
  {
    status: { type: 'string', enum: ['ok', 'degraded'] },
    reasons: { type: 'array', items: text },
    unstored: int,
    oldest_unstored_ms: nullable(int),
  },
  ['status', 'reasons', 'unstored', 'oldest_unstored_ms'],
);

const templateBody = described<ConstructorTemplateBody>(
  {
    metrics: metricNames,
    dimensions: { type: 'array', items: text },
    sort: { type: 'object', properties: { name: text, order: { type: 'string', enum: ['asc', 'desc'] } }, required: ['name', 'order'] },
    group: text,
    viewType: { type: 'string', enum: ['table', 'graph'] },
    sample: { type: 'number' },
    graphs: int,
    dimension_filters: { type: 'array', items: { type: 'object' } },
    metric_filters: { type: 'array', items: { type: 'object' } },
    limit: int,
    offset: int,
  },
  ['metrics', 'dimensions', 'viewType'],
);

const constructorTemplate = described<ConstructorTemplate>(
  {
    id: int,
    title: text,
    email: { ...text, description: 'the author’s e-mail' },
    update_date: { ...text, format: 'date-time' },
    days_in_range: int,
    body: ref('ConstructorTemplateBody'),
    notice: { ...text, description: 'set when the stored template named dimensions or metrics the constructor no longer offers: they are left out of `body`' },
    dropped: { type: 'array', items: text, description: 'the names left out' },
  },
  ['id', 'title', 'email', 'update_date', 'days_in_range', 'body'],
);

const constructorTemplateList = described<ConstructorTemplateList>(
  { constructor_template: { type: 'array', items: ref('ConstructorTemplate') }, totals: { ...int, description: 'templates matching the search' } },
  ['constructor_template', 'totals'],
);
const readinessReport = described<ReadinessReport>(
  {
    ready: { type: 'boolean' },
    reasons: { type: 'array', items: text, description: 'why the process cannot do its job now (a server unreachable, writes failing, a backlog growing); empty when ready' },
  },
  ['ready', 'reasons'],
);

const realtimeTable = described<RealtimeTable>(
  {
    metrics: metricNames,
    data: { type: 'array', items: ref('TableRow') },
    totals: metricValues,
    total: { ...int, description: 'rows before the widget’s limit' },
    not_collected: { ...text, description: 'the widget needs data this service does not collect (gender, age)' },
  },
  ['metrics', 'data', 'totals', 'total'],
);

const currentUsers = described<CurrentUsers>(
  {
    value: { ...int, description: 'distinct visitors of the last `minutes` minutes' },
    previous: { ...int, description: 'distinct visitors of the `minutes` minutes before' },
    diff: nullable({ type: 'string', enum: ['up', 'down'] }),
    minutes: int,
  },
  ['value', 'previous', 'diff', 'minutes'],
);

const withTable = (more: Record<string, Schema>, required: string[] = []): SchemaObject => ({
  allOf: [ref('RealtimeTable'), { type: 'object', properties: more, required }],
});

const realtimeResult = described<RealtimeResult>(
  {
    current_user_count: ref('CurrentUsers'),
    page_views: ref('GraphResult'),
    traffic_sources: withTable({ graph: ref('GraphResult'), traffic_type: nullable(text), report: { ...text, description: 'the base report of the rows' } }, ['graph', 'traffic_type', 'report']),
    active_pages: ref('RealtimeTable'),
    audience: withTable({ dimension: { type: 'string', enum: ['gender', 'age_tns', 'geo_country'] } }, ['dimension']),
    platforms: ref('RealtimeTable'),
    events: withTable(
      {
        graph: nullable({ allOf: [ref('GraphResult')] }),
        events_list: { type: 'array', items: { type: 'object', properties: { value: text, title: text }, required: ['value', 'title'] } },
      },
      ['graph', 'events_list'],
    ),
    utms: ref('RealtimeTable'),
    meta: {
      type: 'object',
      properties: {
        date_start: text,
        date_end: text,
        group: text,
        since: nullable({ ...int, description: 'epoch seconds: the start of the window read (null: the whole period)' }),
        server_time: { ...int, description: 'epoch ms' },
        sample: { type: 'number' },
      },
      required: ['date_start', 'date_end', 'group', 'since', 'server_time', 'sample'],
    },
  },
  ['meta'],
);
realtimeResult.description = `The sections asked for (all by default): ${REALTIME_SECTIONS.join(', ')}.`;

/** The component schemas of the answers, by name. */
export const ANSWER_SCHEMAS: Record<string, SchemaObject> = {
  TableRow: tableRow,
  TableResult: tableResult,
  TableMeta: tableMeta,
  GraphPoint: graphPoint,
  GraphLine: graphLine,
  GraphResult: graphResult,
  FilterValue: filterValue,
  GeoPlace: geoPlace,
  EventbaseLatency: eventbaseLatency,
  ErrorBody: errorBody,
  HealthReport: healthReport,
  ConstructorTemplateBody: templateBody,
  ConstructorTemplate: constructorTemplate,
  ConstructorTemplateList: constructorTemplateList,
  ReadinessReport: readinessReport,
  RealtimeTable: realtimeTable,
  CurrentUsers: currentUsers,
  RealtimeResult: realtimeResult,
};

/** The envelope of every successful answer, `{responseStatus: 200, result}`. */
export function envelope(result: Schema = { type: 'object' }): SchemaObject {
  return { type: 'object', properties: { responseStatus: { type: 'integer', enum: [200] }, result }, required: ['responseStatus', 'result'] };
}

/** A result named in ANSWER_SCHEMAS. */
export const answer = (name: string): ReferenceObject => ref(name);

/** A list answer `{data: [...], meta: {total, offset}}` of a named item. */
export function page(item: string): SchemaObject {
  return {
    type: 'object',
    properties: { data: { type: 'array', items: ref(item) }, meta: { type: 'object', properties: { total: int, offset: int }, required: ['total', 'offset'] } },
    required: ['data', 'meta'],
  };
}

/**
 * The 503 of a call that reads ClickHouse: a table it reads is missing (migrations not applied yet,
 * e.g. before the geo names are loaded), so the store is not ready (common/error.filter.ts).
 */
export const ApiStoreNotReady = (): MethodDecorator & ClassDecorator =>
  ApiResponse({ status: 503, description: `${STORE_NOT_READY_MESSAGE} (ClickHouse has no table the call reads)` });

/** The 507 of a call that runs a report query: ClickHouse stopped it at the report limits; and, as it reads ClickHouse, its 503. */
export const ApiReportLimit = (): MethodDecorator & ClassDecorator =>
  applyDecorators(
    ApiStoreNotReady(),
    ApiResponse({ status: 507, description: `${MEMORY_LIMIT_TEXT}: the query met the report limits (REPORT_MAX_MEMORY_BYTES, REPORT_MAX_ROWS_TO_READ)` }),
  );

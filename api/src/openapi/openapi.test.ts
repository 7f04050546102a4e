import { describe, expect, it } from 'vitest';
import { GROUPS, METRICS } from '@stat/schemas';
import { DEMO_PROJECT_ID } from '../auth/project-access.js';
import { ApiClient } from '../testing/client.js';
import { useTestApi, type TestApi } from '../testing/harness.js';

// The document as a client reads it: from the running api (chDB + PGlite), at its served URL.
// Shapes of an OpenAPI 3 document, as far as these tests read them.
interface Schema {
  $ref?: string;
  allOf?: Schema[];
  type?: string;
  enum?: unknown[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
}
interface Operation {
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

const PREFIX = '/top100';
const DOCS = `${PREFIX}/api/docs`;

let api: TestApi;
let document: Document;

useTestApi({ file: 'openapi.test.ts' }, async (started) => {
  api = started;
  const answer = await fetch(`${api.url}${DOCS}-json`);
  expect(answer.status).toBe(200);
  document = (await answer.json()) as Document;
});

/** `/top100/x/:projectId` as OpenAPI writes it: `/top100/x/{projectId}`. */
const openApiPath = (url: string): string => url.replace(/:(\w+)/g, '{$1}');

/** A `#/components/schemas/X` reference (alone or as the one part of an allOf), followed. */
function resolve(schema: Schema | undefined): Schema {
  if (schema?.allOf?.length === 1) return resolve(schema.allOf[0]);
  if (!schema?.$ref) return schema ?? {};
  return document.components.schemas[schema.$ref.replace('#/components/schemas/', '')] ?? {};
}

const operation = (path: string, method: string): Operation | undefined => document.paths[`${PREFIX}${path}`]?.[method];

/** The web app's pages and assets and the counter snippet: routes of the process that are not calls. */
const OPERATIONS = new Set(['/health', '/live', '/ready', '/metrics']);
const isPageOrAsset = (url: string): boolean => !url.startsWith(`${PREFIX}/`) && !OPERATIONS.has(url);

describe('the OpenAPI document', () => {
  it('names every call the router registered, with its method, and no call the router does not have', () => {
    const calls = api.routes.filter((r) => !isPageOrAsset(r.url) && !r.url.startsWith(DOCS));
    const missing = calls.filter((r) => document.paths[openApiPath(r.url)]?.[r.method.toLowerCase()] === undefined).map((r) => `${r.method} ${r.url}`);
    expect(missing).toEqual([]);
    const registered = new Set(calls.map((r) => `${r.method.toLowerCase()} ${openApiPath(r.url)}`));
    const stale = Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`)).filter((r) => !registered.has(r));
    expect(stale).toEqual([]);
    expect(calls.length).toBeGreaterThan(40);
  });

  it('leaves out only routes that answer pages and scripts, never JSON', async () => {
    const others = api.routes.filter((r) => isPageOrAsset(r.url));
    expect(others.map((r) => r.method).filter((m) => m !== 'GET')).toEqual([]);
    for (const route of others.filter((r) => !r.url.includes('*'))) {
      const answer = await fetch(`${api.url}${route.url}`);
      // Pages, scripts and the built app's other files (styles, images, their .br/.gz twins): each a route of its own.
      expect({ url: route.url, type: answer.headers.get('content-type')?.split(';')[0] }).toMatchObject({ type: expect.not.stringMatching(/json/) });
      expect({ url: route.url, status: answer.status }).toEqual({ url: route.url, status: 200 });
    }
  });

  it('gives the report calls section 7’s body', () => {
    for (const call of ['table', 'graph', 'csv']) {
      const body = resolve(operation(`/api/report/v1.0/report/{projectId}/{reportName}/${call}`, 'post')?.requestBody?.content['application/json']?.schema);
      expect(Object.keys(body.properties ?? {}).sort()).toEqual(
        [
          'date_start',
          'date_end',
          'group',
          'metrics',
          'sort',
          'selected_lines',
          'need_all_total',
          'split',
          'dimensions',
          'filters',
          'dimension_filters',
          'metric_filters',
          'sample',
          'limit',
          'offset',
          'empty_dates',
          'parents',
          // §7 "…/csv — same params as the table … title": the file's title.
          ...(call === 'csv' ? ['title'] : []),
        ].sort(),
      );
      expect(body.required).toEqual(['date_start', 'date_end', 'group']);
      expect(body.properties?.group?.enum).toEqual([...GROUPS]);
      expect(body.properties?.metrics?.items?.enum).toEqual([...METRICS]);
      expect(Object.keys(resolve(body.properties?.sort).properties ?? {})).toEqual(['name', 'order']);
      expect(resolve(body.properties?.dimension_filters?.items).required).toEqual(['key', 'op', 'value']);
    }
  });

  it('gives the table and graph answers their shapes, and every error of a report call', () => {
    for (const [call, result, fields] of [
      ['table', 'TableResult', ['data', 'metrics', 'all_metrics', 'totals', 'sort', 'meta']],
      ['graph', 'GraphResult', ['metrics', 'data', 'totals', 'sample']],
    ] as const) {
      const responses = operation(`/api/report/v1.0/report/{projectId}/{reportName}/${call}`, 'post')?.responses ?? {};
      expect(Object.keys(responses).sort()).toEqual(['200', '400', '401', '403', '404', '429', '503', '507']);
      const envelope = responses['200']?.content?.['application/json']?.schema;
      expect(envelope?.properties?.result).toEqual({ $ref: `#/components/schemas/${result}` });
      expect(resolve(envelope?.properties?.result).required).toEqual(fields);
      for (const status of ['400', '401', '403', '404', '429', '503', '507']) {
        expect(responses[status]?.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/ErrorBody' });
      }
    }
  });

  it('gives the constructor its body and the templates their answers', () => {
    const body = resolve(operation('/api/report/v1.0/eventbase/{projectId}/constructor', 'post')?.requestBody?.content['application/json']?.schema);
    expect(body.properties?.view_type?.enum).toEqual(['table', 'graph']);
    expect(body.properties?.dimensions?.type).toBe('array');
    const one = operation('/api/v1.0/constructor_template/{id}', 'get')?.responses['200']?.content?.['application/json']?.schema;
    expect(resolve(one?.properties?.result).required).toEqual(['id', 'title', 'email', 'update_date', 'days_in_range', 'body']);
    const list = operation('/api/v1.0/user/constructor_templates', 'get')?.responses['200']?.content?.['application/json']?.schema;
    expect(resolve(list?.properties?.result).required).toEqual(['constructor_template', 'totals']);
    expect(Object.keys(operation('/api/v1.0/constructor_template/{id}', 'put')?.responses ?? {})).toContain('401');
  });

  it('says what a call that needs a login, a body and a project answers when refused', () => {
    expect(Object.keys(operation('/api/v1.0/project/{projectId}', 'put')?.responses ?? {}).sort()).toEqual(['200', '400', '401', '403', '404', '503']);
    expect(Object.keys(operation('/api/v1.0/auth/login', 'post')?.responses ?? {}).sort()).toEqual(['200', '400', '403', '429']);
    expect(Object.keys(operation('/api/v1.0/category', 'get')?.responses ?? {})).toEqual(['200']);
  });

  it('lists the 503 of a missing ClickHouse table on the calls that read ClickHouse, and only there', () => {
    for (const [path, method] of [
      ['/api/report/v1.0/ch_geo', 'get'],
      ['/api/report/v1.0/report/{projectId}/rating/table', 'post'],
      ['/api/report/v1.0/service/eventbase_latency', 'get'],
      ['/api/report/v1.0/project/list', 'get'],
      ['/api/v1.0/project/{projectId}', 'get'],
      ['/api/v1.0/export/{file}', 'get'],
      ['/api/report/v1.0/eventbase/{projectId}/goals', 'post'],
    ]) {
      const refused = operation(path!, method!)?.responses['503'];
      expect(refused?.content?.['application/json']?.schema, `${method} ${path}`).toEqual({ $ref: '#/components/schemas/ErrorBody' });
    }
    expect(operation('/api/report/v1.0/ch_segments', 'get')?.responses['503']).toBeUndefined();
    expect(operation('/api/v1.0/category', 'get')?.responses['503']).toBeUndefined();
  });

  it('refers only to schemas it holds, each reference standing alone (OpenAPI 3.0 ignores what is beside one)', () => {
    const refs = [...JSON.stringify(document).matchAll(/"\$ref":"#\/components\/schemas\/(\w+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(20);
    expect(refs.filter((name) => document.components.schemas[name] === undefined)).toEqual([]);
    const crowded: string[] = [];
    JSON.stringify(document, (_key, value: unknown) => {
      if (typeof value === 'object' && value !== null && '$ref' in value && Object.keys(value).length > 1) crowded.push(JSON.stringify(value));
      return value;
    });
    expect(crowded).toEqual([]);
  });

  it('lists the fields the api takes: each documented field is checked, an undocumented one refused', async () => {
    const client = new ApiClient(api.url);
    const body = resolve(operation('/api/report/v1.0/report/{projectId}/{reportName}/table', 'post')?.requestBody?.content['application/json']?.schema);
    const base = { date_start: 'today', date_end: 'today', group: 'hour' };
    const table = `/api/report/v1.0/report/${DEMO_PROJECT_ID}/traffic_sources/table`;
    expect((await client.call('POST', table, base)).status).toBe(200);
    for (const field of Object.keys(body.properties ?? {}).filter((f) => !(f in base))) {
      // Text, which none of these fields takes: refused by the field's own check, not as unknown.
      const answer = await client.call('POST', table, { ...base, [field]: 'wrong' });
      const message = String(answer.json.errors?.message);
      expect({ field, status: answer.status, named: message.includes(field), unknown: message.includes('should not exist') }).toEqual({ field, status: 400, named: true, unknown: false });
    }
    const unknown = await client.call('POST', table, { ...base, not_a_field: 1 });
    expect(unknown.json.errors.message).toBe('property not_a_field should not exist');
  });
});

describe('the document’s page', () => {
  it('is Swagger UI, served from this api alone', async () => {
    const page = await fetch(`${api.url}${DOCS}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const scripts = [...html.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      expect(src).not.toMatch(/^(https?:)?\/\//);
      expect({ src, status: (await fetch(new URL(src, `${api.url}${DOCS}`))).status }).toEqual({ src, status: 200 });
    }
  });
});

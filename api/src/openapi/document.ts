import { RequestMethod, type Type } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  DocumentBuilder,
  SwaggerModule,
  type OpenAPIObject,
  type OperationObject,
  type ParameterObject,
  type ReferenceObject,
  type ResponseObject,
  type SchemaObject,
} from '@nestjs/swagger';
import { REPORT_DEFINITIONS } from '@stat/schemas';
import { CONTROLLERS } from '../app.module.js';
import { CSRF_MESSAGE, FORBIDDEN, LOGIN_REQUIRED, PROJECT_NOT_FOUND } from '../auth/access.guard.js';
import { POLICY, READ_ONLY, type Policy } from '../auth/policy.js';
import { RequestValidationPipe } from '../common/validated.js';
import { ID_MAX, IdPipe } from '../http/id.pipe.js';
import { TOO_MANY_REPORTS } from '../http/security.js';
import { ProjectIdPipe } from '../common/project-id.pipe.js';
import { FILTERABLE_DIMENSIONS } from '../reports/filter.dto.js';
import { ANSWER_SCHEMAS, envelope, answer } from './answers.js';
import { addDtoSchema, queryParameters, refTo } from './dto-schema.js';

/** Where the document is served, under the gateway prefix: the page and its JSON. */
function apiDocumentPaths(prefix: string): { page: string; json: string } {
  return { page: `/${prefix}/api/docs`, json: `/${prefix}/api/docs-json` };
}

/**
 * Serves the OpenAPI document of the api: Swagger UI (its files from the swagger-ui-dist
 * package, nothing fetched from elsewhere) and the JSON. The document is built on its first
 * request, not at start: the start pays only for loading the package (about 0.2 s of CPU).
 */
export function serveApiDocument(app: NestFastifyApplication, prefix: string): void {
  const paths = apiDocumentPaths(prefix);
  SwaggerModule.setup(paths.page, app, () => buildApiDocument(app), {
    jsonDocumentUrl: paths.json,
    raw: ['json'],
    customSiteTitle: 'Статистика — api',
  });
}

/** The document of the app's routes: what Nest's scanner finds, completed from the routes' own metadata. */
function buildApiDocument(app: NestFastifyApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Статистика — api')
    .setDescription(
      'Every call of the api. Success: `{responseStatus: 200, result}`; an error: `{responseStatus, errors: {message}}`. ' +
        'POST, PUT, PATCH and DELETE (but the report reads) need the header `X-Requested-With`. The login is two cookies (see api/API.md).',
    )
    .setVersion('v1.0')
    .build();
  const document = SwaggerModule.createDocument(app, config, { operationIdFactory: (controller, method) => `${controller}.${method}` });
  const schemas: Record<string, SchemaObject> = { ...ANSWER_SCHEMAS };
  for (const controller of CONTROLLERS) {
    for (const method of Object.getOwnPropertyNames(controller.prototype)) {
      const handler: unknown = (controller.prototype as Record<string, unknown>)[method];
      if (typeof handler !== 'function' || Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
      const operation = findOperation(document, `${controller.name}.${method}`);
      if (!operation) throw new Error(`${controller.name}.${method} is missing from the OpenAPI document`);
      complete(operation.operation, routeOf(operation.path, controller, method, handler as object), controller.name.replace(/Controller$/, ''), schemas);
    }
  }
  document.paths['/health'] = { get: health() };
  Object.assign(document.paths, operationsPaths());
  document.components = { ...document.components, schemas };
  return document;
}

function findOperation(document: OpenAPIObject, id: string): { path: string; operation: OperationObject } | undefined {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const operation of [item.get, item.post, item.put, item.patch, item.delete]) {
      if (operation?.operationId === id) return { path, operation };
    }
  }
  return undefined;
}

interface RouteArg {
  index: number;
  data?: unknown;
  pipes?: unknown[];
}

/** The DTO a validation pipe of the route checks the body or the query with. */
function dtoOf(args: RouteArg[]): Type | undefined {
  for (const arg of args) for (const pipe of arg.pipes ?? []) if (pipe instanceof RequestValidationPipe) return pipe.dto;
  return undefined;
}

/** What a route declares for Nest, read from its metadata. */
interface Route {
  path: string;
  verb: RequestMethod;
  args: (type: RouteParamtypes) => RouteArg[];
  policy: Policy | undefined;
  readOnly: boolean;
  /** the status of success: @HttpCode, else Nest's default */
  status: number;
}

function routeOf(path: string, controller: Type, method: string, handler: object): Route {
  const args = Object.entries((Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) ?? {}) as Record<string, RouteArg>);
  const verb = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod;
  return {
    path,
    verb,
    // keys are `${paramtype}:${index}`
    args: (type) => args.filter(([key]) => Number(key.split(':')[0]) === type).map(([, arg]) => arg),
    policy: (Reflect.getMetadata(POLICY, handler) ?? Reflect.getMetadata(POLICY, controller)) as Policy | undefined,
    readOnly: (Reflect.getMetadata(READ_ONLY, handler) ?? Reflect.getMetadata(READ_ONLY, controller)) === true,
    status: (Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined) ?? (verb === RequestMethod.POST ? 201 : 200),
  };
}

/**
 * Completes one operation from what the route declares for Nest: its body and query from the
 * DTOs its pipes validate with, its path parameters, its answer, and its errors from its access
 * policy (the access guard's rules), its inputs and its kind.
 */
function complete(operation: OperationObject, route: Route, tag: string, schemas: Record<string, SchemaObject>): void {
  operation.tags = [tag];
  const body = dtoOf(route.args(RouteParamtypes.BODY));
  const query = dtoOf(route.args(RouteParamtypes.QUERY));
  delete operation.requestBody;
  if (body) {
    addDtoSchema(body, schemas);
    operation.requestBody = { required: true, content: { 'application/json': { schema: refTo(body) } } };
  }
  const pathNames = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const parameters: ParameterObject[] = pathNames.map((name) => ({ name, in: 'path', required: true, schema: pathSchema(name, route) }));
  for (const parameter of query ? queryParameters(query) : []) parameters.push({ ...parameter, in: 'query' });
  operation.parameters = parameters;
  const responses = operation.responses as Record<string, ResponseObject>;
  successAnswer(responses, route.status);
  const errors = errorsOf(route, body !== undefined || query !== undefined || pathNames.length > 0);
  for (const [code, description] of Object.entries(errors)) responses[code] = { description: responses[code]?.description || description };
  for (const [code, response] of Object.entries(responses)) {
    if (Number(code) >= 400 && !response.content) response.content = { 'application/json': { schema: answer('ErrorBody') } };
  }
}

/** The one success answer: as declared with @ApiOkResponse, else the envelope (no body for 204). */
function successAnswer(responses: Record<string, ResponseObject>, status: number): void {
  for (const code of Object.keys(responses)) if (/^2/.test(code) && code !== String(status)) delete responses[code];
  const declared = responses[status];
  if (status === 204) responses[204] = { description: 'Done; no body.' };
  else if (!declared?.content) responses[status] = { description: declared?.description || 'Success.', content: { 'application/json': { schema: envelope() } } };
}

/** The errors a route can answer, by what refuses them: the input checks, the access guard, the limits. */
function errorsOf(route: Route, hasInput: boolean): Record<number, string> {
  const { policy } = route;
  const errors: Record<number, string> = {};
  if (hasInput) errors[400] = 'A field or parameter is invalid; `errors.message` names it.';
  if (policy && policy.kind !== 'public') errors[401] = `${LOGIN_REQUIRED}: no session, or it expired (refresh once, then log in).`;
  if (policy?.kind === 'permission' || (policy?.kind === 'project' && policy.level !== 'known')) errors[403] = `${FORBIDDEN}: the user may not do this.`;
  if (route.verb !== RequestMethod.GET && !route.readOnly) errors[403] = `${errors[403] ? `${errors[403]} Or: ` : ''}${CSRF_MESSAGE}.`;
  if (route.path.includes('{')) errors[404] = policy?.kind === 'project' ? `${PROJECT_NOT_FOUND}, or another row the path names is unknown.` : 'A row the path names is unknown.';
  if (route.path.includes('/api/report/')) errors[429] = TOO_MANY_REPORTS;
  return errors;
}

const ID_SCHEMA: SchemaObject = { type: 'integer', minimum: 1, maximum: ID_MAX };

/** A path parameter: a row id where a pipe or the access policy reads one, a name from its catalogue, or text. */
function pathSchema(name: string, route: Route): SchemaObject {
  const pipes = route.args(RouteParamtypes.PARAM).filter((p) => p.data === name).flatMap((p) => p.pipes ?? []);
  if (pipes.some((p) => p === ProjectIdPipe || p instanceof IdPipe) || (route.policy?.kind === 'project' && route.policy.param === name)) return ID_SCHEMA;
  if (name === 'reportName') return { type: 'string', enum: Object.keys(REPORT_DEFINITIONS) };
  if (name === 'filterName') return { type: 'string', enum: [...FILTERABLE_DIMENSIONS] };
  return { type: 'string' };
}

/** GET /live, /ready and /metrics, which Fastify answers outside Nest and the prefix, like /health. */
function operationsPaths(): Record<string, { get: OperationObject }> {
  const json = (schema: SchemaObject | ReferenceObject) => ({ 'application/json': { schema } });
  return {
    '/live': {
      get: {
        operationId: 'live',
        tags: ['Service'],
        parameters: [],
        responses: { 200: { description: 'The process runs (liveness).', content: json({ type: 'object', properties: { status: { type: 'string', enum: ['ok'] } }, required: ['status'] }) } },
      },
    },
    '/ready': {
      get: {
        operationId: 'ready',
        tags: ['Service'],
        parameters: [],
        responses: {
          200: { description: 'The process can do its job: every server it needs answers, writes go through, no backlog grows.', content: json(answer('ReadinessReport')) },
          503: { description: 'The process cannot do its job now; the reasons say why.', content: json(answer('ReadinessReport')) },
        },
      },
    },
    '/metrics': {
      get: {
        operationId: 'metrics',
        tags: ['Service'],
        parameters: [],
        responses: { 200: { description: 'The process’s metrics in the Prometheus text format (README, «Operating»).', content: { 'text/plain; version=0.0.4': { schema: { type: 'string' } } } } },
      },
    },
  };
}

/** GET /health, which Fastify answers outside Nest and the prefix. */
function health(): OperationObject {
  return {
    operationId: 'health',
    tags: ['Service'],
    parameters: [],
    responses: { 200: { description: 'The process’s health; always 200 while it runs.', content: { 'application/json': { schema: answer('HealthReport') } } } },
  };
}

import { BadRequestException } from '@nestjs/common';
import { unstorableText } from '@stat/schemas';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Deepest JSON nesting a request may have. The deepest real request (a report's filter tree)
 * is a handful of levels; class-transformer recurses once per level and runs out of stack
 * long before JSON.parse does, so depth is refused on the raw text, before anything walks it.
 */
const MAX_JSON_DEPTH = 32;

export const DEPTH_MESSAGE = `The request body is nested too deeply (at most ${MAX_JSON_DEPTH} levels)`;
export const BODY_NOT_OBJECT = 'The request body must be a JSON object';

/** True when the JSON text opens more than `max` arrays and objects inside each other. */
function jsonDepthExceeds(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > max) return true;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) depth--;
  }
  return false;
}

/**
 * The first string (a value or a key) in `value` that Postgres or ClickHouse cannot store, as
 * `where: reason`; null when every string is storable. Walks without recursion.
 */
function findUnstorable(value: unknown, where: string): string | null {
  const stack: { value: unknown; path: string }[] = [{ value, path: where }];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop() as { value: unknown; path: string };
    if (typeof current === 'string') {
      const reason = unstorableText(current);
      if (reason) return `${path} ${reason}`;
    } else if (typeof current === 'object' && current !== null) {
      for (const [key, child] of Object.entries(current)) {
        const reason = unstorableText(key);
        if (reason) return `a field name in ${path} ${reason}`;
        stack.push({ value: child, path: `${path}.${key}` });
      }
    }
  }
  return null;
}

/**
 * The api's JSON body parser: Fastify's own (which refuses `__proto__` and `constructor` keys),
 * after refusing a text nested deeper than MAX_JSON_DEPTH.
 */
export function guardedJsonParser(fastify: FastifyInstance): (request: FastifyRequest, body: Buffer, done: (error: Error | null, body?: unknown) => void) => void {
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  return (request, body, done) => {
    const text = body.toString('utf8');
    if (jsonDepthExceeds(text)) {
      done(new BadRequestException(DEPTH_MESSAGE), undefined);
      return;
    }
    // Fastify's own parser answers through `done`; its type also allows a promise, which it never returns here.
    void parseJson(request, text, done);
  };
}

/**
 * Guards every route of `fastify` before Nest's pipes see a request: a body that is not an
 * object, and NUL or lone surrogates in any string (or field name) of the body, the query or
 * the path are answered 400.
 */
export function registerInputGuard(fastify: FastifyInstance): void {
  fastify.addHook('preValidation', async (request: FastifyRequest) => {
    const body = request.body;
    if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
      throw new BadRequestException(BODY_NOT_OBJECT);
    }
    const problem =
      findUnstorable(request.params, 'path') ?? findUnstorable(request.query, 'query') ?? findUnstorable(body, 'body');
    if (problem) throw new BadRequestException(problem);
  });
}

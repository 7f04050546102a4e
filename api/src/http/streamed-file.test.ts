import 'reflect-metadata';
import { BadRequestException, Controller, HttpCode, Logger, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorFilter } from '../common/error.filter.js';
import { streamedFile } from './streamed-file.js';

// Needs: nothing. A file route as the api's CSV routes are (Nest on Fastify, the api's error
// filter, a real HTTP client), over sources that fail where a query can: before the first row
// and after some rows went out. The api's own routes fail there only when ClickHouse does.

const HEAD = '\uFEFFТип источника;Визиты\r\nИтого;3\r\n';

async function* rows(failAfter: number | null): AsyncGenerator<string> {
  if (failAfter === 0) throw new BadRequestException('the query was refused');
  yield HEAD;
  // The client has the first chunk before the next is read: the failure comes after the answer began.
  await new Promise((resolve) => setTimeout(resolve, 50));
  yield 'Поисковые системы;2\r\n';
  if (failAfter !== null) throw new Error('the query stopped midway');
  yield 'Прямые заходы;1\r\n';
}

// The route's decorators applied as functions: a test file is outside the api's tsconfig, whose
// experimentalDecorators the test transform reads.
class FileController {
  whole() {
    return streamedFile(rows(null), 'text/csv; charset=utf-8');
  }

  before() {
    return streamedFile(rows(0), 'text/csv; charset=utf-8');
  }

  midway() {
    return streamedFile(rows(2), 'text/csv; charset=utf-8');
  }
}
for (const name of ['whole', 'before', 'midway'] as const) {
  const descriptor = Object.getOwnPropertyDescriptor(FileController.prototype, name)!;
  Post(name)(FileController.prototype, name, descriptor);
  HttpCode(200)(FileController.prototype, name, descriptor);
}
Controller('csv')(FileController);
class FileModule {}
Module({ controllers: [FileController] })(FileModule);

let app: NestFastifyApplication;
let url: string;
beforeAll(async () => {
  app = await NestFactory.create<NestFastifyApplication>(FileModule, new FastifyAdapter(), { logger: false });
  app.useGlobalFilters(new ErrorFilter());
  Logger.overrideLogger(false);
  await app.listen(0, '127.0.0.1');
  url = await app.getUrl();
});
afterAll(async () => {
  await app?.close();
});

const post = (path: string): Promise<Response> => fetch(`${url}/csv/${path}`, { method: 'POST' });

describe('a streamed file', () => {
  it('sends every chunk of a source that ends well', async () => {
    const response = await post('whole');
    // Decoded keeping the byte-order mark, which the file starts with.
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await response.arrayBuffer());
    expect([response.status, response.headers.get('content-type'), text]).toEqual([
      200,
      'text/csv; charset=utf-8',
      `${HEAD}Поисковые системы;2\r\nПрямые заходы;1\r\n`,
    ]);
  });

  it('answers the error of a source that fails before its first chunk, as JSON, not a file', async () => {
    const response = await post('before');
    expect([response.status, response.headers.get('content-type'), await response.json()]).toEqual([
      400,
      'application/json; charset=utf-8',
      { responseStatus: 400, errors: { message: 'the query was refused' } },
    ]);
  });

  it('aborts the download of a source that fails midway: the client gets a network error, not a short file', async () => {
    const response = await post('midway');
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow('terminated');
  });
});

import { Readable } from 'node:stream';
import { StreamableFile } from '@nestjs/common';

/**
 * A file streamed from `chunks`, begun only once its first chunk is ready. What fails before it
 * (a query refused, the store away) rejects this promise, so the route answers the usual JSON
 * error and status; what fails after it aborts the response (a stream that errs once the
 * headers are out makes Fastify destroy the connection), so the client sees a failed download,
 * never a file cut short that looks whole. A source whose first chunk is its header alone must
 * put the first data in that chunk (ReportAnswers.csvOf), or a failing first query would still
 * come after the answer began.
 */
export async function streamedFile(chunks: AsyncIterable<string>, type: string): Promise<StreamableFile> {
  const iterator = chunks[Symbol.asyncIterator]();
  const first = await iterator.next();
  async function* all(): AsyncGenerator<string> {
    try {
      if (first.done === true) return;
      yield first.value;
      for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) yield next.value;
    } finally {
      // A download stopped before the end (the client went away) closes the source, and its query.
      await iterator.return?.();
    }
  }
  return new StreamableFile(Readable.from(all()), { type });
}

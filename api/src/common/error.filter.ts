import { Catch, HttpException, HttpStatus, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CLICKHOUSE_SETUP_ERRORS, clickHouseErrorCode } from '@stat/storage';

/** The text the web app recognises as an unexpected server failure (specification 001, §8). */
const SERVER_ERROR_MESSAGE = 'Oops... Something went terribly wrong.';

/**
 * The answer when ClickHouse has no table a call reads (its migrations not applied yet, e.g. before
 * the geo names are loaded): the store is not ready, so 503 with what to do, not the 500 of a fault.
 */
export const STORE_NOT_READY_MESSAGE = 'Хранилище отчётов ещё не готово: в нём нет нужной таблицы. Повторите запрос позже.';

/** ClickHouse's answers that say the store is not set up yet: a table or database missing. */
const NOT_READY_CODES: ReadonlySet<number> = new Set([CLICKHOUSE_SETUP_ERRORS.UNKNOWN_TABLE!, CLICKHOUSE_SETUP_ERRORS.UNKNOWN_DATABASE!]);

/** The one error shape; `request_id` only on a 500, to find the logged fault. */
export interface ErrorBody {
  responseStatus: number;
  errors: { message: string; request_id?: string; [more: string]: unknown };
}

/**
 * Shapes every error the same way: `{ responseStatus, errors: { message } }`. Also Fastify's
 * error handler (errors of body parsing and hooks, before Nest runs), through `answer`.
 */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('api');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    this.answer(exception, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>());
  }

  /** Sends the error answer of `exception`; a 500 is logged with the request id it carries. */
  answer(exception: unknown, request: FastifyRequest, reply: FastifyReply): void {
    const { status, message } = describe(exception);
    const body: ErrorBody = { responseStatus: status, errors: { message } };
    if (status >= 500) {
      body.errors.request_id = request.id;
      const detail = exception instanceof Error ? (exception.stack ?? exception.message) : String(exception);
      this.logger.error(`request ${request.id} ${request.method} ${request.url.split('?')[0]}: ${detail}`);
    }
    this.send(reply, status, body);
  }

  protected send(reply: FastifyReply, status: number, body: ErrorBody): void {
    if (reply.sent) return;
    void reply.status(status).header('content-type', 'application/json; charset=utf-8').send(body);
  }
}

function describe(exception: unknown): { status: number; message: string } {
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const response = exception.getResponse();
    const raw = typeof response === 'object' && response !== null && 'message' in response ? response.message : response;
    const message = Array.isArray(raw) ? raw.join('; ') : String(raw);
    return { status, message: status >= 500 ? SERVER_ERROR_MESSAGE : message };
  }
  // Fastify's own errors (malformed JSON, body too large, unsupported media type) carry a statusCode.
  if (typeof exception === 'object' && exception !== null && 'statusCode' in exception) {
    const status = Number(exception.statusCode);
    if (status >= 400 && status < 500) {
      return { status, message: exception instanceof Error ? exception.message : 'bad request' };
    }
  }
  const clickHouseCode = clickHouseErrorCode(exception);
  if (clickHouseCode !== null && NOT_READY_CODES.has(clickHouseCode)) return { status: HttpStatus.SERVICE_UNAVAILABLE, message: STORE_NOT_READY_MESSAGE };
  return { status: HttpStatus.INTERNAL_SERVER_ERROR, message: SERVER_ERROR_MESSAGE };
}

import { Catch, HttpException, HttpStatus, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';

/** The text the web app recognises as an unexpected server failure (specification 001, §8). */
export const SERVER_ERROR_MESSAGE = 'Oops... Something went terribly wrong.';

/** Shapes every error the same way: `{ responseStatus, errors: { message } }`. */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('api');

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const { status, message } = describe(exception);
    if (status >= 500) this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    void reply.status(status).send({ responseStatus: status, errors: { message } });
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
  // Fastify's own errors (malformed JSON, body too large) carry a statusCode.
  if (typeof exception === 'object' && exception !== null && 'statusCode' in exception) {
    const status = Number(exception.statusCode);
    if (status >= 400 && status < 500) {
      return { status, message: exception instanceof Error ? exception.message : 'bad request' };
    }
  }
  return { status: HttpStatus.INTERNAL_SERVER_ERROR, message: SERVER_ERROR_MESSAGE };
}

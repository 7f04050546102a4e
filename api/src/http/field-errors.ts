import { BadRequestException, Catch, ValidationPipe, type Type, type ValidationError, type ValidationPipeOptions } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorFilter } from '../common/error.filter.js';
import { RequestValidationPipe } from '../common/validated.js';

/** A 400 that names, besides its message, the texts of each bad field. */
export class FieldErrorsException extends BadRequestException {
  constructor(
    message: string,
    readonly fields: Record<string, string[]>,
  ) {
    super(message);
  }
}

/** Flattens class-validator errors to `{ 'counter_settings.color': ['…'] }`. */
function fieldTexts(errors: ValidationError[], parent = ''): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const error of errors) {
    const path = parent ? `${parent}.${error.property}` : error.property;
    if (error.constraints) fields[path] = Object.values(error.constraints);
    Object.assign(fields, fieldTexts(error.children ?? [], path));
  }
  return fields;
}

/** Every text of every field, joined: the message of a form whose texts are shown as they are. */
export function joinedTexts(fields: Record<string, string[]>): string {
  return Object.values(fields).flat().join('; ');
}

/**
 * Like `validated(Dto)`, but a failure carries the field texts in `errors.fields`, and as
 * message one fixed text (the specification's «Request validation errors» for the create
 * call) or one made of the texts (`joinedTexts`).
 */
export function validatedFields<T>(
  dto: Type<T>,
  message: string | ((fields: Record<string, string[]>) => string) = 'Request validation errors',
  options: Pick<ValidationPipeOptions, 'stopAtFirstError'> = {},
): ValidationPipe {
  return new RequestValidationPipe(dto, {
    ...options,
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => {
      const fields = fieldTexts(errors);
      return new FieldErrorsException(typeof message === 'string' ? message : message(fields), fields);
    },
  });
}

/** The api's error filter: the common one, plus `errors.fields` for field errors. */
@Catch()
export class ApiErrorFilter extends ErrorFilter {
  override answer(exception: unknown, request: FastifyRequest, reply: FastifyReply): void {
    if (exception instanceof FieldErrorsException) {
      this.send(reply, 400, { responseStatus: 400, errors: { message: exception.message, fields: exception.fields } });
      return;
    }
    super.answer(exception, request, reply);
  }
}

import { BadRequestException, Catch, ValidationPipe, type Type, type ValidationError } from '@nestjs/common';
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
export function fieldTexts(errors: ValidationError[], parent = ''): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const error of errors) {
    const path = parent ? `${parent}.${error.property}` : error.property;
    if (error.constraints) fields[path] = Object.values(error.constraints);
    Object.assign(fields, fieldTexts(error.children ?? [], path));
  }
  return fields;
}

/**
 * Like `validated(Dto)`, but a failure is one fixed message (the specification's
 * «Request validation errors» for the create call) with the field texts in `errors.fields`.
 */
export function validatedFields<T>(dto: Type<T>, message = 'Request validation errors'): ValidationPipe {
  return new RequestValidationPipe({
    expectedType: dto,
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new FieldErrorsException(message, fieldTexts(errors)),
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

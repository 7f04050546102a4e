import { BadRequestException, ValidationPipe, type ArgumentMetadata, type Type, type ValidationPipeOptions } from '@nestjs/common';
import { BODY_NOT_OBJECT } from '../http/input-guard.js';

/**
 * Nest's validation, but a missing or null body is a 400 (Nest would validate it as `{}`, so
 * that a route whose fields are all optional would take "no body" as "change nothing").
 */
export class RequestValidationPipe extends ValidationPipe {
  /** `dto`: the class validated against, also read by the OpenAPI document (openapi/document.ts). */
  constructor(
    readonly dto: Type,
    options: Omit<ValidationPipeOptions, 'expectedType'>,
  ) {
    super({ ...options, expectedType: dto });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && (value === undefined || value === null)) throw new BadRequestException(BODY_NOT_OBJECT);
    return super.transform(value, metadata);
  }
}

/**
 * A validation pipe bound to its DTO class. Naming the class here, rather than relying on
 * emitted decorator metadata, keeps validation on under every compiler and test runner.
 * Unknown fields are refused, so a typo in a request is an error, not a silent default.
 */
export function validated<T>(dto: Type<T>): ValidationPipe {
  return new RequestValidationPipe(dto, {
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    validationError: { target: false, value: false },
  });
}

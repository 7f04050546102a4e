import { ValidationPipe, type Type } from '@nestjs/common';

/**
 * A validation pipe bound to its DTO class. Naming the class here, rather than relying on
 * emitted decorator metadata, keeps validation on under every compiler and test runner.
 * Unknown fields are refused, so a typo in a request is an error, not a silent default.
 */
export function validated<T>(dto: Type<T>): ValidationPipe {
  return new ValidationPipe({
    expectedType: dto,
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    validationError: { target: false, value: false },
  });
}

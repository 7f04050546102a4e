import { BadRequestException } from '@nestjs/common';

/**
 * A body may repeat an id that its path carries: the specification's clients send what they
 * read back whole (a template's `id` on edit, an access request's ids). The same id says
 * nothing more and is ignored; another one contradicts the path, and the call is refused
 * rather than guessing which of the two was meant.
 */
export function assertSameAsPath(field: string, sent: number | undefined, path: number): void {
  if (sent !== undefined && sent !== path) throw new BadRequestException(`${field} in the body (${sent}) is not the one in the path (${path})`);
}

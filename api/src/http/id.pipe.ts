import { BadRequestException, Injectable, type PipeTransform } from '@nestjs/common';

/** A numeric id from the path (a database row id): digits, at most 15 of them. */
@Injectable()
export class IdPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    if (!/^\d{1,15}$/.test(value) || Number(value) < 1) throw new BadRequestException('id must be a positive integer');
    return Number(value);
  }
}

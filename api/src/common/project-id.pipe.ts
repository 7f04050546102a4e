import { BadRequestException, Injectable, type PipeTransform } from '@nestjs/common';

/** A project id from the path: a positive 32-bit integer, written in digits. */
@Injectable()
export class ProjectIdPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    const id = /^\d{1,10}$/.test(value) ? Number(value) : NaN;
    if (!Number.isInteger(id) || id < 1 || id > 4_294_967_295) {
      throw new BadRequestException('projectId must be a positive 32-bit integer');
    }
    return id;
  }
}

import { Injectable, type PipeTransform } from '@nestjs/common';
import { parseRowId } from '../http/id.pipe.js';

/** A project id from the path: a whole number from 1 to 2 147 483 647, written in digits. */
@Injectable()
export class ProjectIdPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    return parseRowId(value, 'projectId');
  }
}

import { BadRequestException, Inject, Injectable } from '@nestjs/common';
import {
  CONSTRUCTOR_DIMENSIONS,
  CONSTRUCTOR_GRAPH_LINES,
  CONSTRUCTOR_MAX_DIMENSIONS,
  constructorDefinition,
  isConstructorDimension,
  type Dimension,
  type GraphResult,
  type TableResult,
} from '@stat/schemas';
import { isVisitTableDimension, ReportAnswers } from '../engine/index.js';
import type { ConstructorCsvRequestDto, ConstructorRequestDto } from './constructor-request.dto.js';

/**
 * The constructor's queries (specification 001, §4 "Constructor"): each one is a report
 * definition made at request time from the dimensions asked, answered by the one report engine.
 */
@Injectable()
export class ConstructorService {
  constructor(@Inject(ReportAnswers) private readonly reports: ReportAnswers) {}

  /** The table (drill-down of the dimensions) or the graph (the first dimension's top rows by date). */
  async query(projectId: number, body: ConstructorRequestDto): Promise<TableResult | GraphResult> {
    const dimensions = dimensionsOf(body);
    const request = { ...body, dimensions };
    if (body.view_type === 'graph') {
      // §4: the graph reads the first dimension; by date alone it is the period's one line.
      const first = dimensions[0]!;
      const path = first === 'date' ? [] : [first];
      return this.reports.graphOf(projectId, constructorDefinition(path), { ...request, dimensions: path }, CONSTRUCTOR_GRAPH_LINES);
    }
    return this.reports.tableOf(projectId, constructorDefinition(dimensions), request);
  }

  /** The whole table as CSV, as the report calls give it. */
  async csv(projectId: number, body: ConstructorCsvRequestDto): Promise<{ disposition: string; lines: AsyncIterable<string> }> {
    const dimensions = dimensionsOf(body);
    return this.reports.csvOf(projectId, constructorDefinition(dimensions), { ...body, dimensions });
  }
}

/**
 * The dimensions read: the first 10 (§5: an 11th is ignored), each of the constructor's list.
 * The pages of visits (entry and exit pages, depth) are read from the visits, so they combine
 * with each other only.
 */
function dimensionsOf(body: ConstructorRequestDto): Dimension[] {
  const asked = (body.dimensions ?? []).slice(0, CONSTRUCTOR_MAX_DIMENSIONS);
  if (asked.length === 0) throw new BadRequestException('dimensions: choose at least one dimension');
  const unknown = asked.find((d) => !isConstructorDimension(d));
  if (unknown !== undefined) throw new BadRequestException(`dimensions: ${unknown} is not a dimension of the constructor (it has ${CONSTRUCTOR_DIMENSIONS.join(', ')})`);
  if (new Set(asked).size !== asked.length) throw new BadRequestException('dimensions: a dimension is named twice');
  const dimensions = asked as Dimension[];
  const ofVisits = dimensions.filter(isVisitTableDimension);
  if (ofVisits.length > 0 && ofVisits.length < dimensions.length) {
    throw new BadRequestException(`dimensions: ${ofVisits.join(', ')} combine only with entry_page, exit_page and view_depth`);
  }
  return dimensions;
}

import { IsIn, IsOptional } from 'class-validator';
import { CONSTRUCTOR_LIMITS, CONSTRUCTOR_VIEW_TYPES, type ConstructorRequest, type ConstructorViewType } from '@stat/schemas';
import { CsvTitle, ReportRequestDto } from '../reports/report-request.dto.js';

/**
 * The body of `POST /api/report/v1.0/eventbase/{projectId}/constructor` (specification 001, §7):
 * a report request whose `dimensions` are the constructor's rows (at most 10 are read, §5), with
 * the view wanted and the constructor's row counts.
 */
export class ConstructorRequestDto extends ReportRequestDto implements ConstructorRequest {
  /** table (default): the rows of the dimensions as a drill-down; graph: the first dimension's lines by date */
  @IsOptional()
  @IsIn(CONSTRUCTOR_VIEW_TYPES)
  view_type?: ConstructorViewType;

  /** §5 "Количество строк": 10, 25, 50 or 100 */
  @IsOptional()
  @IsIn(CONSTRUCTOR_LIMITS, { message: `limit must be one of ${CONSTRUCTOR_LIMITS.join(', ')}` })
  declare limit?: number;
}

/** The body of the constructor's CSV call: the table's, and the file's title (a saved template's, say). */
export class ConstructorCsvRequestDto extends ConstructorRequestDto {
  @CsvTitle()
  title?: string;
}

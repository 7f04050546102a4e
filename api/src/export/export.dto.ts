import { ArrayMaxSize, ArrayUnique, IsArray, IsIn, IsInt, Max, Min } from 'class-validator';
import { EXPORT_FIELD_INFO, EXPORT_FIELDS, EXPORT_MAX_LIMIT, type ExportField, type ExportLinkRequest } from '@stat/schemas/export';
import { IsNotBefore, IsReportDate } from '../reports/report-request.dto.js';

/** The collected fields, the only ones an export may name. */
const COLLECTED = EXPORT_FIELDS.filter((f) => EXPORT_FIELD_INFO[f].collected);

/** POST …/export/link: the period, the limit and the fields of the data address (spec 002 §2). */
export class ExportLinkDto implements ExportLinkRequest {
  /** YYYY-MM-DD, or today, yesterday, Ndays */
  @IsReportDate()
  date_start!: string;

  @IsReportDate()
  @IsNotBefore('date_start')
  date_end!: string;

  // A JSON number: the page sends what its digits-only field holds.
  @IsInt({ message: 'limit must be a whole number' })
  @Min(1)
  @Max(EXPORT_MAX_LIMIT)
  limit!: number;

  @IsIn(COLLECTED, { each: true, message: `fields: each must be one of ${COLLECTED.join(', ')}` })
  @ArrayUnique()
  @ArrayMaxSize(EXPORT_FIELDS.length)
  @IsArray()
  fields!: ExportField[];
}

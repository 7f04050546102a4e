import { Transform } from 'class-transformer';
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

  /** a list, or the names joined by commas as spec 002 §7 sends them (`event_class,session_id`; blanks around a name and empty names dropped) */
  @IsIn(COLLECTED, { each: true, message: `fields: each must be one of ${COLLECTED.join(', ')}` })
  @ArrayUnique()
  @ArrayMaxSize(EXPORT_FIELDS.length)
  @IsArray({ message: 'fields must be a list of field names, or the names joined by commas' })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.split(',').map((name) => name.trim()).filter((name) => name !== '') : value))
  fields!: ExportField[];
}

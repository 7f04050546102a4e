// The report engine (plan → SQL → run → shape): the one thing a feature imports of it. A feature
// that needs more of the engine adds it here, so that what the engine offers stays one list.
export type { ReportRequest } from './request.js';
export { datesOf, DEFAULT_LINES, metricsOf, periodSample, ReportRequestError, scopeOf, sourceOf, type ReportWindow } from './plan.js';
export type { Plan } from './plan-types.js';
export { Params, ReportQueryError, type Sql } from './sql/params.js';
export { isVisitTableDimension } from './sql/dimensions.js';
export { eventConditionsSql } from './sql/filters.js';
export { metricAlias, scaledCount } from './sql/metrics.js';
export { sampleSql, visitEventRows, whereSql } from './sql/sources.js';
export { compileProjectDays, compileProjectSpans, compileTable } from './sql/statements.js';
export { MEMORY_LIMIT_TEXT, ReportEngine, type QueryContext, type ResultRow } from './runner.js';
export { normalValue, ReportAnswers, showsTitle } from './answers.js';
export { DictionaryRepository } from './dictionaries.js';
export { Sampling } from './sampling.js';
export { BOM, csvDisposition, csvLine } from './csv.js';

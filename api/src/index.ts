export { startApi, type ApiConfig, type RunningApi } from './main.js';
export { ReportRequestDto, isCalendarDate } from './reports/report-request.dto.js';
export { bucketStarts, moscowDateTime } from './reports/buckets.js';
export { createAdministrator } from './users/admin.js';
export type { DbTarget } from './db/db.js';

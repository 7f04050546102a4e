export { startApi, type ApiConfig, type RouteEntry, type RunningApi } from './main.js';
export { ReportRequestDto, isCalendarDate } from './reports/report-request.dto.js';
export { bucketStarts, moscowDateTime } from '@stat/schemas/buckets';
export { createAdministrator } from './users/admin.js';
export type { Db, DbTarget } from './db/db.js';
export { openDb } from './db/open.js';
export { readCounterSettings, type StoredCounterSettings } from './projects/counter-settings-source.js';

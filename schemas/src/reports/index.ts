import type { ReportDefinition } from './define.js';
import { SUMMARY_REPORTS } from './summary.js';
import { SOURCES_REPORTS } from './sources.js';
import { AUDIENCE_REPORTS } from './audience.js';
import { TECHNOLOGY_REPORTS } from './technology.js';
import { CONTENT_REPORTS } from './content.js';
import { EVENTS_REPORTS } from './events.js';
import { MEDIA_REPORTS } from './media.js';

export * from './define.js';
export * from './api.js';
export * from './constructor.js';
export * from './realtime.js';
export * from './titles.js';
export { MEDIA_METRICS, MEDIA_TOTALS } from './media.js';
/** The URL tree's levels, for the web's titles of the «Разделы сайта» drill-down. */
export { URL_SECTION_DEPTH, URL_SECTION_DIMENSIONS, urlSectionLevel } from '../dimensions.js';

/** Every base report the api answers, by name (specification 001, §2). */
export const REPORT_DEFINITIONS: Readonly<Record<string, ReportDefinition>> = Object.fromEntries(
  [...SUMMARY_REPORTS, ...SOURCES_REPORTS, ...AUDIENCE_REPORTS, ...TECHNOLOGY_REPORTS, ...CONTENT_REPORTS, ...EVENTS_REPORTS, ...MEDIA_REPORTS].map((r) => [r.name, r]),
);

/** The names of the reports the api answers. */
export const REPORTS: readonly string[] = Object.keys(REPORT_DEFINITIONS);

/** The definition of a report, or undefined for a name the api does not answer. */
export function reportDefinition(name: string): ReportDefinition | undefined {
  return Object.hasOwn(REPORT_DEFINITIONS, name) ? REPORT_DEFINITIONS[name] : undefined;
}

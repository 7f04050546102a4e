import { BY_VISITS, reportGroup, VISIT_METRICS, type ReportDefinition } from './define.js';
import { DIMENSIONS } from '../dimensions.js';

/** Every report of the audience counts visits, most first. */
const audienceReport = reportGroup('audience', { metrics: VISIT_METRICS, defaultSort: BY_VISITS });

/** A report of what the service does not collect: a placeholder, with the dimension's reason. */
const notCollectedReport = (name: string, title: string, dimension: 'gender' | 'age_tns' | 'category_1'): ReportDefinition =>
  audienceReport({ name, title, drilldown: [dimension], empty: 'placeholder', notCollected: DIMENSIONS[dimension].reason });

export const AUDIENCE_REPORTS: readonly ReportDefinition[] = [
  audienceReport({
    name: 'geo',
    title: 'География',
    drilldown: ['geo_country', 'geo_area', 'geo_city'],
  }),
  audienceReport({
    name: 'view_depth',
    title: 'Глубина просмотра',
    drilldown: ['view_depth'],
    metrics: ['visits', 'visitors', 'page_views', 'bounces', 'avg_sessions_duration'],
  }),
  audienceReport({
    name: 'visit_time',
    title: 'Время на сайте',
    drilldown: ['visit_time'],
    metrics: ['visits', 'visitors', 'page_views', 'bounces', 'avg_view_depth'],
  }),
  notCollectedReport('sex', 'Пол', 'gender'),
  notCollectedReport('age', 'Возраст', 'age_tns'),
  notCollectedReport('segments', 'Интересы', 'category_1'),
];

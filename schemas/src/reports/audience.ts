import { BY_VISITS, defineReport, VISIT_METRICS, type ReportDefinition } from './define.js';
import { DIMENSIONS } from '../dimensions.js';

const notCollected = (dimension: 'gender' | 'age_tns' | 'category_1'): string => DIMENSIONS[dimension].reason;

export const AUDIENCE_REPORTS: readonly ReportDefinition[] = [
  defineReport({
    name: 'geo',
    title: 'География',
    group: 'audience',
    drilldown: ['geo_country', 'geo_area', 'geo_city'],
    metrics: VISIT_METRICS,
    defaultSort: BY_VISITS,
  }),
  defineReport({
    name: 'view_depth',
    title: 'Глубина просмотра',
    group: 'audience',
    drilldown: ['view_depth'],
    metrics: ['visits', 'visitors', 'page_views', 'bounces', 'avg_sessions_duration'],
    defaultSort: { name: 'visits', order: 'desc' },
  }),
  defineReport({
    name: 'visit_time',
    title: 'Время на сайте',
    group: 'audience',
    drilldown: ['visit_time'],
    metrics: ['visits', 'visitors', 'page_views', 'bounces', 'avg_view_depth'],
    defaultSort: { name: 'visits', order: 'desc' },
  }),
  defineReport({ name: 'sex', title: 'Пол', group: 'audience', drilldown: ['gender'], metrics: VISIT_METRICS, defaultSort: BY_VISITS, empty: 'placeholder', notCollected: notCollected('gender') }),
  defineReport({ name: 'age', title: 'Возраст', group: 'audience', drilldown: ['age_tns'], metrics: VISIT_METRICS, defaultSort: BY_VISITS, empty: 'placeholder', notCollected: notCollected('age_tns') }),
  defineReport({ name: 'segments', title: 'Интересы', group: 'audience', drilldown: ['category_1'], metrics: VISIT_METRICS, defaultSort: BY_VISITS, empty: 'placeholder', notCollected: notCollected('category_1') }),
];

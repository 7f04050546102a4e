import { defineReport } from './define.js';

/** «Посещаемость»: the period's traffic, one row per time bucket. Read from the rollups when it can. */
export const summary = defineReport({
  name: 'summary',
  title: 'Посещаемость',
  group: 'summary',
  drilldown: [],
  metrics: ['page_views', 'visits', 'visitors', 'bounces', 'avg_view_depth', 'avg_sessions_duration', 'events_count', 'uid'],
  defaultSort: { name: 'date', order: 'desc' },
});

export const SUMMARY_REPORTS = [summary];

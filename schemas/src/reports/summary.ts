import { defineReport } from './define.js';

/** «Посещаемость»: the period's traffic, one row per time bucket. Read from the rollups when it can. */
const summary = defineReport({
  name: 'summary',
  title: 'Посещаемость',
  group: 'summary',
  drilldown: [],
  metrics: ['page_views', 'visits', 'visitors', 'bounces', 'avg_view_depth', 'avg_sessions_duration', 'events_count', 'uid'],
  defaultSort: { name: 'date', order: 'desc' },
});

/**
 * «Рейтинг»: the rated sites of one of the site's rating categories, by popularity over whole
 * days (the api's rating report; spec 001, §2 and §9). Its rows are sites, not the site's traffic.
 */
const rating = defineReport({
  name: 'rating',
  title: 'Рейтинг',
  group: 'summary',
  drilldown: ['project_id'],
  metrics: ['popularity', 'position'],
  defaultSort: { name: 'position', order: 'asc' },
  sampling: false,
  empty: 'placeholder',
  filterable: false,
});

export const SUMMARY_REPORTS = [summary, rating];

import { reportGroup, type ReportDefinition } from './define.js';

/** The reports of events count events, most first, and show a placeholder when there are none. */
const eventsReport = reportGroup('events', { metrics: ['events_count', 'visits', 'visitors'], defaultSort: { name: 'events_count', order: 'desc' }, empty: 'placeholder' });

export const EVENTS_REPORTS: readonly ReportDefinition[] = [
  eventsReport({
    name: 'custom_vars',
    title: 'Собственные события',
    drilldown: ['event_name', 'customer_params_key', 'customer_params_value'],
    where: [{ key: 'event_type', op: '=', value: 'event' }],
  }),
  eventsReport({
    name: 'usability',
    title: 'Блочная аналитика',
    drilldown: ['ub_block_list'],
    metrics: ['usability_views', 'usability_clicks', 'usability_ctr', 'visits', 'visitors'],
    defaultSort: { name: 'usability_views', order: 'desc' },
    skipEmpty: true,
  }),
  eventsReport({
    name: 'likes',
    title: 'Лайки',
    drilldown: ['event_name'],
    notCollected: 'the counter sends no like or share events of social buttons',
  }),
];

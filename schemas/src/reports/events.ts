import { defineReport, type ReportDefinition } from './define.js';

export const EVENTS_REPORTS: readonly ReportDefinition[] = [
  defineReport({
    name: 'custom_vars',
    title: 'Собственные события',
    group: 'events',
    drilldown: ['event_name', 'customer_params_key', 'customer_params_value'],
    metrics: ['events_count', 'visits', 'visitors'],
    defaultSort: { name: 'events_count', order: 'desc' },
    where: [{ key: 'event_type', op: '=', value: 'event' }],
    empty: 'placeholder',
  }),
  defineReport({
    name: 'usability',
    title: 'Блочная аналитика',
    group: 'events',
    drilldown: ['ub_block_list'],
    metrics: ['usability_views', 'usability_clicks', 'usability_ctr', 'visits', 'visitors'],
    defaultSort: { name: 'usability_views', order: 'desc' },
    skipEmpty: true,
    empty: 'placeholder',
  }),
  defineReport({
    name: 'likes',
    title: 'Лайки',
    group: 'events',
    drilldown: ['event_name'],
    metrics: ['events_count', 'visits', 'visitors'],
    defaultSort: { name: 'events_count', order: 'desc' },
    empty: 'placeholder',
    notCollected: 'the counter sends no like or share events of social buttons',
  }),
];

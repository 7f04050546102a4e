import { eventKeyOf } from '@stat/schemas';

/** A page view of an engine test: [Moscow day, visitor, visit, path with its arguments]. */
export type PageView = readonly [day: string, visitor: string, session: number, path: string, ...more: unknown[]];

/**
 * Page views as the aggregator stores them, for the engine tests that fill their own chDB: the
 * i-th at 09:00:i of its day on https://site.example, numbered in its visit (1 starts it), with
 * the columns `more` gives it (its source, its place).
 */
export function pageViewRows(project: number, views: readonly PageView[], more: (i: number) => Record<string, unknown> = () => ({})): Record<string, unknown>[] {
  return views.map(([day, visitor, session, path], i) => {
    const url = `https://site.example${path}`;
    return {
      event_key: eventKeyOf(crypto.randomUUID()),
      project_id: project,
      event_type: 'pageview',
      ts: `${day} 09:00:${String(i).padStart(2, '0')}`,
      event_date: day,
      visitor_id: visitor,
      session_id: session,
      session_start: `${day} 09:00:00`,
      event_number: views.slice(0, i + 1).filter((v) => v[2] === session).length,
      url,
      url_no_args: url.split('?')[0],
      traffic_type: 'direct',
      ...more(i),
    };
  });
}

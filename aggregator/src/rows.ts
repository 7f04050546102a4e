import { moscowDate, type AcceptedHit } from '@stat/schemas';
import type { VisitCutter } from './sessions.js';

/** A row of the `events` table, as inserted (JSONEachRow); visitor_hash is computed by ClickHouse. */
export interface EventRow {
  event_id: string;
  project_id: number;
  event_type: string;
  /** UTC, written YYYY-MM-DD HH:mm:ss.sss */
  ts: string;
  event_date: string;
  visitor_id: string;
  session_id: string;
  url: string;
  referrer: string;
  title: string;
  screen_width: number;
  screen_height: number;
  user_agent: string;
}

/** Maps an accepted hit to its event row; the client address is not carried over. */
export function toEventRow(accepted: AcceptedHit, visits: VisitCutter): EventRow {
  const { hit } = accepted;
  return {
    event_id: accepted.id,
    project_id: hit.p,
    event_type: hit.t,
    ts: new Date(accepted.at).toISOString().slice(0, 23).replace('T', ' '),
    event_date: moscowDate(accepted.at),
    visitor_id: hit.v,
    session_id: visits.visitOf(hit.p, hit.v, accepted.at).toString(),
    url: hit.u,
    referrer: hit.r,
    title: hit.ti,
    screen_width: hit.sw,
    screen_height: hit.sh,
    user_agent: accepted.ua,
  };
}

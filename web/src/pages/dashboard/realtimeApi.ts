/** The live dashboard's call (spec 001 §7): `POST /api/report/v1.0/eventbase/{projectId}/realtime`. */
import type { RealtimeRequest, RealtimeResult } from '@stat/schemas/reports';
import { apiPost, type RequestOptions } from '../../lib/api';

export function fetchRealtime(projectId: string, body: RealtimeRequest, options?: RequestOptions): Promise<RealtimeResult> {
  return apiPost<RealtimeResult>(`/api/report/v1.0/eventbase/${encodeURIComponent(projectId)}/realtime`, body, options);
}

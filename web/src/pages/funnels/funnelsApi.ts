/** The calls of the funnels page (spec 002 §7). */
import type { Funnel, FunnelInput, FunnelList, FunnelMetric, FunnelReport } from '@stat/schemas/funnels';
import type { GoalList } from '@stat/schemas/goals';
import { apiDelete, apiDownload, apiGet, apiPost, apiPut, query, type DownloadedFile, type RequestOptions } from '../../lib/api';

const base = (projectId: string) => `/api/v1.0/${encodeURIComponent(projectId)}`;

export function listFunnels(projectId: string, options?: RequestOptions): Promise<FunnelList> {
  return apiGet(`${base(projectId)}/funnels${query({ limit: 100 })}`, options);
}


export function createFunnel(projectId: string, body: FunnelInput): Promise<Funnel> {
  return apiPost(`${base(projectId)}/funnel`, body);
}

export function updateFunnel(projectId: string, id: number, body: FunnelInput): Promise<Funnel> {
  return apiPut(`${base(projectId)}/funnel/${id}`, body);
}

export function deleteFunnel(projectId: string, id: number): Promise<Record<string, never>> {
  return apiDelete(`${base(projectId)}/funnel/${id}`);
}

export function funnelReport(projectId: string, body: { funnel_id: number; date_start: string; date_end: string; metrics?: readonly FunnelMetric[] }, options?: RequestOptions): Promise<FunnelReport> {
  return apiPost(`/api/report/v1.0/eventbase/${encodeURIComponent(projectId)}/funnel`, body, options);
}

/** The goals a step may use: the caller's and the public ones (100, §9 "funnel … list page 100"). */
export function stepGoals(projectId: string, options?: RequestOptions): Promise<GoalList> {
  return apiGet(`/api/v1.0/user/goals${query({ project_id: projectId, show_common: true, limit: 100 })}`, options);
}

/** The report as a CSV file (made by the api, as every report's CSV). */
export function funnelCsv(projectId: string, body: { funnel_id: number; date_start: string; date_end: string }): Promise<DownloadedFile> {
  return apiDownload(`/api/report/v1.0/eventbase/${encodeURIComponent(projectId)}/funnel/csv`, body);
}

/**
 * The constructor's calls (spec 001 §7): its report call and the templates. Bodies and answers
 * are the shared types of `@stat/schemas/reports`.
 */
import type {
  ConstructorRequest,
  ConstructorTemplate,
  ConstructorTemplateBody,
  ConstructorTemplateList,
  GraphResult,
  ReportRequest,
  TableResult,
} from '@stat/schemas/reports';
import { apiDelete, apiDownload, apiGet, apiPost, apiPut, query, type DownloadedFile } from '../../lib/api';

const reportPath = (projectId: string) => `/api/report/v1.0/eventbase/${encodeURIComponent(projectId)}/constructor`;

export function fetchConstructorTable(projectId: string, body: ReportRequest, signal: AbortSignal): Promise<TableResult> {
  return apiPost<TableResult>(reportPath(projectId), { ...body, view_type: 'table' } satisfies ConstructorRequest, { signal });
}

export function fetchConstructorGraph(projectId: string, body: ReportRequest, signal: AbortSignal): Promise<GraphResult> {
  return apiPost<GraphResult>(reportPath(projectId), { ...body, view_type: 'graph' } satisfies ConstructorRequest, { signal });
}

/** The whole table as CSV (without offset, limit and the view). */
export function downloadConstructorCsv(projectId: string, body: ConstructorRequest): Promise<DownloadedFile> {
  const { limit: _limit, offset: _offset, view_type: _view, ...rest } = body;
  return apiDownload(`${reportPath(projectId)}/csv`, rest);
}

/** What a save sends (§3 "Save payload"). */
export interface TemplateSave {
  readonly title?: string;
  readonly body?: ConstructorTemplateBody;
  readonly days_in_range?: number;
}

export function listTemplates(params: { search?: string; offset?: number }, signal?: AbortSignal): Promise<ConstructorTemplateList> {
  return apiGet<ConstructorTemplateList>(`/api/v1.0/user/constructor_templates${query({ search: params.search || undefined, offset: params.offset || undefined })}`, signal ? { signal } : {});
}

export function fetchTemplate(id: number, signal?: AbortSignal): Promise<ConstructorTemplate> {
  return apiGet<ConstructorTemplate>(`/api/v1.0/constructor_template/${id}`, signal ? { signal } : {});
}

export function createTemplate(save: Required<TemplateSave>): Promise<ConstructorTemplate> {
  return apiPost<ConstructorTemplate>('/api/v1.0/constructor_template', save);
}

export function updateTemplate(id: number, save: TemplateSave): Promise<ConstructorTemplate> {
  return apiPut<ConstructorTemplate>(`/api/v1.0/constructor_template/${id}`, save);
}

export function deleteTemplate(id: number): Promise<Record<string, never>> {
  return apiDelete<Record<string, never>>(`/api/v1.0/constructor_template/${id}`);
}

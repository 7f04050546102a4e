/**
 * The calls of the filters (spec 001 §7): the dialog's values (`filter/{dimension}`), the saved
 * filter templates (`/project/{id}/saved_filters`) and the place names of geo ids (`ch_geo`).
 */
import type { FilterOption, SavedFilter, SavedFilterBody, SavedFilterType } from '@stat/schemas/filters';
import { apiDelete, apiGet, apiPost, apiPut, type RequestOptions } from '../../lib/api';

/** A page of a dimension's values. */
export interface FilterValuesPage {
  readonly data: readonly FilterOption[];
  readonly meta: { readonly total: number; readonly offset: number };
}

/** The body of `filter/{dimension}`. */
export interface FilterValuesRequest {
  readonly date_start: string;
  readonly date_end: string;
  readonly offset: number;
  readonly search?: string;
  /** The values above (an event class, for its event names). */
  readonly parents?: readonly (string | number)[];
}

/** `dimension` `events` lists the event classes, and with parents [class] the class's event names. */
export function fetchFilterValues(projectId: string, dimension: string, body: FilterValuesRequest, options?: RequestOptions): Promise<FilterValuesPage> {
  return apiPost<FilterValuesPage>(`/api/report/v1.0/eventbase/${encodeURIComponent(projectId)}/filter/${encodeURIComponent(dimension)}`, body, options);
}

const savedPath = (projectId: string) => `/api/v1.0/project/${encodeURIComponent(projectId)}/saved_filters`;

export function listSavedFilters(projectId: string, options?: RequestOptions): Promise<{ data: SavedFilter[]; total: number }> {
  return apiGet(savedPath(projectId), options);
}

export function createSavedFilter(projectId: string, body: { title: string; type: SavedFilterType; body: SavedFilterBody }): Promise<SavedFilter> {
  return apiPost(savedPath(projectId), body);
}

export function updateSavedFilter(projectId: string, id: number, body: { title?: string; type?: SavedFilterType; body?: SavedFilterBody }): Promise<SavedFilter> {
  return apiPut(`${savedPath(projectId)}/${id}`, body);
}

export function deleteSavedFilter(projectId: string, id: number): Promise<unknown> {
  return apiDelete(`${savedPath(projectId)}/${id}`);
}

/** A place of the geo dictionary. */
export interface GeoPlace {
  readonly id: number;
  readonly name: string;
}

export function fetchGeoPlaces(ids: readonly number[], options?: RequestOptions): Promise<{ data: GeoPlace[] }> {
  return apiGet(`/api/report/v1.0/ch_geo?geo_ids=${ids.join(',')}`, options);
}

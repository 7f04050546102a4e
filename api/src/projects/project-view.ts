import { MEDIA_TOTALS, REPORTS } from '@stat/schemas';
import type { ProjectMetrics } from './metrics.js';
import type { ProjectRow } from './projects.repository.js';

/** counter_settings of a project that never saved any (specification 000, §3 form defaults). */
export const DEFAULT_COUNTER_SETTINGS = {
  color: '#313EFB',
  counter_type: 0,
  merge_subdomains: false,
  merge_www: true,
  track_hashes: false,
  track_user_id: false,
  use_block_analytics: false,
  block_analytics_attribute: 'your-attribute',
  use_whitelist: false,
  whitelisted_urls: [] as string[],
  blacklisted_urls: [] as string[],
};

export type CounterSettings = typeof DEFAULT_COUNTER_SETTINGS & { title: string };

export function counterSettings(row: Pick<ProjectRow, 'counter_settings' | 'title'>): CounterSettings {
  return { ...DEFAULT_COUNTER_SETTINGS, ...(row.counter_settings as Partial<CounterSettings>), title: row.title };
}

export interface CategoryView {
  id: number;
  title: string;
  parent_title: string | null;
  theme_id: number;
  name: string;
  position: number | null;
  positions: { popularity: number | null };
}

export interface ProjectView {
  id: number;
  title: string;
  url: string;
  cleanedUrl: string;
  favicon: string | null;
  keywords: string;
  tags: string[];
  types: number[];
  regions: number[];
  categories: CategoryView[];
  counter_settings: CounterSettings;
  rating_blockers: { ununique: boolean; blacklisted: boolean };
  available_reports: string[];
  deleted: boolean;
  can_edit_project: boolean;
  can_be_in_rate: boolean;
  counter_is_set: boolean;
  in_rating: boolean;
  public_stats: boolean;
  status: string;
  users: { access_level: number; user: { email: string } }[];
  permissions: { can_edit_project: boolean };
  created: string;
  views: number;
  views_change: number | null;
  visitors: number;
  visitors_change: number | null;
  metrics: ProjectMetrics | null;
}

export function projectView(
  row: ProjectRow,
  extra: {
    canEdit: boolean;
    counterIsSet: boolean;
    /** the project has stored material hits: its media reports have data */
    media: boolean;
    users: { email: string; access_level: number }[];
    categories: CategoryView[];
    metrics: ProjectMetrics | null;
    ununique: boolean;
  },
): ProjectView {
  return {
    id: row.id,
    title: row.title,
    url: row.url,
    cleanedUrl: row.cleaned_url,
    favicon: row.favicon,
    keywords: row.keywords,
    tags: [],
    types: row.types,
    regions: row.regions,
    categories: extra.categories,
    counter_settings: counterSettings(row),
    rating_blockers: { ununique: extra.ununique, blacklisted: false },
    // The spec's key of the media reports (materials, authors): present when they have data.
    available_reports: extra.media ? [...REPORTS, MEDIA_TOTALS] : [...REPORTS],
    deleted: row.deleted_at !== null,
    can_edit_project: extra.canEdit,
    can_be_in_rate: row.can_be_in_rate,
    counter_is_set: extra.counterIsSet,
    in_rating: row.in_rating,
    public_stats: row.public_stats,
    status: row.deleted_at !== null ? 'deleted' : row.rating_status,
    users: extra.canEdit ? extra.users.map((u) => ({ access_level: u.access_level, user: { email: u.email } })) : [],
    permissions: { can_edit_project: extra.canEdit },
    created: row.created_at.toISOString(),
    views: extra.metrics?.page_views.today ?? 0,
    views_change: extra.metrics?.page_views.change ?? null,
    visitors: extra.metrics?.visitors.today ?? 0,
    visitors_change: extra.metrics?.visitors.change ?? null,
    metrics: extra.metrics,
  };
}

import { DEFAULT_COUNTER_SETTINGS, MEDIA_TOTALS, REPORTS, type CounterSettings, type Project, type ProjectCategory, type ProjectMetrics } from '@stat/schemas';
import type { ProjectRow } from './projects.repository.js';

/** A project's counter settings: what it saved over the defaults, and its title. */
export function counterSettings(row: Pick<ProjectRow, 'counter_settings' | 'title'>): CounterSettings {
  return { ...DEFAULT_COUNTER_SETTINGS, ...(row.counter_settings as Partial<CounterSettings>), title: row.title };
}

export function projectView(
  row: ProjectRow,
  extra: {
    canEdit: boolean;
    counterIsSet: boolean;
    /** the project has stored material hits: its media reports have data */
    media: boolean;
    users: { email: string; access_level: number }[];
    categories: ProjectCategory[];
    metrics: ProjectMetrics | null;
    ununique: boolean;
  },
): Project {
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

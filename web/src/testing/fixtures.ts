/**
 * The api's shapes as the tests need them: one whole value of each, for a test to change only
 * the fields it is about (`over`).
 */
import type { Conversion } from '@stat/schemas/conversions';
import type { Goal } from '@stat/schemas/goals';
import type { CounterSettings, Project, ProjectListRow } from '@stat/schemas/projects';

/** A site's counter settings as a new site has them. */
export const testCounterSettings: CounterSettings = {
  color: '#313EFB',
  counter_type: 0,
  merge_subdomains: false,
  merge_www: true,
  track_hashes: false,
  track_user_id: false,
  use_block_analytics: false,
  block_analytics_attribute: 'your-attribute',
  use_whitelist: false,
  whitelisted_urls: [],
  blacklisted_urls: [],
  title: 'Мой сайт',
};

/** A site (8000001) that its owner may edit, with no counter installed yet. */
export function testProject(over: Partial<Project> = {}): Project {
  return {
    id: 8000001,
    title: 'Мой сайт',
    url: 'https://example.ru',
    cleanedUrl: 'example.ru',
    favicon: null,
    keywords: '',
    tags: [],
    types: [],
    regions: [],
    categories: [],
    counter_settings: testCounterSettings,
    rating_blockers: { ununique: false, blacklisted: false },
    available_reports: ['summary'],
    deleted: false,
    can_edit_project: true,
    can_be_in_rate: true,
    counter_is_set: false,
    in_rating: false,
    public_stats: true,
    status: 'unincluded',
    users: [],
    permissions: { can_edit_project: true },
    created: '2026-11-21T10:00:00.000Z',
    views: 0,
    views_change: null,
    visitors: 0,
    visitors_change: null,
    metrics: null,
    ...over,
  };
}

/** A row of the sites list: «Сайт {id}» at https://s{id}.example, without figures. */
export function testListRow(id: number, over: Partial<ProjectListRow> = {}): ProjectListRow {
  return {
    id,
    title: `Сайт ${id}`,
    url: `https://s${id}.example`,
    favicon: null,
    status: 'unincluded',
    counter_is_set: false,
    can_edit_project: true,
    in_rating: false,
    can_be_in_rate: true,
    deleted: false,
    has_access_requests: false,
    metrics: null,
    views: 0,
    views_change: null,
    visitors: 0,
    visitors_change: null,
    categories: [],
    ...over,
  };
}

/** A goal of its owner's, with no conditions. */
export function testGoal(over: Partial<Goal> = {}): Goal {
  return {
    id: 1,
    project_id: 5,
    title: 'Цель',
    description: '',
    access: 'own',
    is_protected: false,
    is_td_sending: false,
    conditions: [],
    body: { dimension_filters: [] },
    conversions: [],
    email: 'a@example.com',
    is_owner: true,
    can_delete: true,
    is_deleted: false,
    goal_template_id: null,
    yandex_id: null,
    yandex_goal_name: null,
    is_yandex_sending: false,
    update_date: '2026-11-24T00:00:00.000Z',
    ...over,
  };
}

/** A conversion of its owner's: visits reaching goal 2, last click in 7 days. */
export function testConversion(over: Partial<Conversion> = {}): Conversion {
  return {
    id: 1,
    project_id: 5,
    title: 'Корзина',
    description: '',
    metric: 'visits',
    numerator_goal_id: 2,
    denominator_goal_id: null,
    access: 'own',
    is_favorite: false,
    email: { email: 'a@example.com' },
    is_owner: true,
    attribution: 'last_click',
    attribution_window: 7,
    update_date: '2026-11-24',
    ...over,
  };
}

/**
 * The counter settings form (spec 000 §2.6, §3): its values from a project, its rules, and the
 * body the save sends. `merge_www` is sent as the inverse of the form's flag («count www.site as
 * a separate site»); the domain blacklist has no switch of its own on the wire: off sends an
 * empty list.
 */
import { inRatingOrModeration } from '@stat/schemas/rating';
import { DEFAULT_COUNTER_SETTINGS, type CounterSettings, type Project } from '@stat/schemas/projects';
import { checkAttribute, checkBlacklistEntry, checkTitle, checkWhitelistEntry, TEXTS } from '../../data/validation';

/** The form's values. */
export interface CounterForm {
  readonly title: string;
  readonly color: string;
  readonly counter_type: number;
  readonly merge_subdomains: boolean;
  /** The form flag: www.site counted apart from site (merge_www false). */
  readonly separate_www: boolean;
  readonly track_hashes: boolean;
  readonly track_user_id: boolean;
  readonly use_block_analytics: boolean;
  readonly block_analytics_attribute: string;
  readonly use_whitelist: boolean;
  readonly whitelisted_urls: readonly string[];
  readonly use_blacklist: boolean;
  readonly blacklisted_urls: readonly string[];
}

/** Field errors of the form; list entries by index. */
export interface CounterFormErrors {
  title?: string;
  block_analytics_attribute?: string;
  whitelisted_urls?: string;
  blacklisted_urls?: string;
  whitelist?: Record<number, string>;
  blacklist?: Record<number, string>;
}

/** Whether the site is in the rating (its title then changes only through the rating form). */
export function isRated(project: Pick<Project, 'in_rating' | 'status'>): boolean {
  return inRatingOrModeration(project.in_rating, project.status);
}

/** The form for a project's saved settings. */
export function formFromProject(project: Pick<Project, 'title' | 'counter_settings'>): CounterForm {
  const s = project.counter_settings;
  return {
    title: project.title,
    color: s.color || DEFAULT_COUNTER_SETTINGS.color,
    counter_type: s.counter_type,
    merge_subdomains: s.merge_subdomains,
    separate_www: !s.merge_www,
    track_hashes: s.track_hashes,
    track_user_id: s.track_user_id,
    use_block_analytics: s.use_block_analytics,
    block_analytics_attribute: s.block_analytics_attribute || DEFAULT_COUNTER_SETTINGS.block_analytics_attribute,
    use_whitelist: s.use_whitelist,
    whitelisted_urls: s.whitelisted_urls.length > 0 ? s.whitelisted_urls : [],
    use_blacklist: s.blacklisted_urls.length > 0,
    blacklisted_urls: s.blacklisted_urls,
  };
}

/** The form's errors; the title is not checked when it cannot change (a rated site). */
export function validateCounterForm(form: CounterForm, rated: boolean): CounterFormErrors {
  const errors: CounterFormErrors = {};
  if (!rated) {
    const title = checkTitle(form.title, 'settings');
    if (title) errors.title = title;
  }
  if (form.use_block_analytics) {
    const attribute = checkAttribute(form.block_analytics_attribute);
    if (attribute) errors.block_analytics_attribute = attribute;
  }
  const entries = (list: readonly string[], check: (v: string) => string | null) => {
    const out: Record<number, string> = {};
    list.forEach((value, i) => {
      const text = check(value);
      if (text) out[i] = text;
    });
    return out;
  };
  if (form.use_whitelist) {
    if (form.whitelisted_urls.length === 0) errors.whitelisted_urls = TEXTS.required;
    const bad = entries(form.whitelisted_urls, checkWhitelistEntry);
    if (Object.keys(bad).length > 0) errors.whitelist = bad;
  }
  if (form.use_blacklist) {
    if (form.blacklisted_urls.length === 0) errors.blacklisted_urls = TEXTS.required;
    const bad = entries(form.blacklisted_urls, checkBlacklistEntry);
    if (Object.keys(bad).length > 0) errors.blacklist = bad;
  }
  return errors;
}

/** Whether the errors object holds any error. */
export function hasErrors(errors: CounterFormErrors): boolean {
  return Object.keys(errors).length > 0;
}

/** The PUT body for the form; the title only when it changed (a rated site's cannot). */
export function counterPayload(form: CounterForm, project: Pick<Project, 'title'>): { title?: string; counter_settings: Omit<CounterSettings, 'title'> } {
  const settings: Omit<CounterSettings, 'title'> = {
    color: form.color,
    counter_type: form.counter_type,
    merge_subdomains: form.merge_subdomains,
    merge_www: !form.separate_www,
    track_hashes: form.track_hashes,
    track_user_id: form.track_user_id,
    use_block_analytics: form.use_block_analytics,
    block_analytics_attribute: form.block_analytics_attribute.trim(),
    use_whitelist: form.use_whitelist,
    whitelisted_urls: form.use_whitelist ? form.whitelisted_urls.map((u) => u.trim()) : [],
    blacklisted_urls: form.use_blacklist ? form.blacklisted_urls.map((u) => u.trim()) : [],
  };
  const title = form.title.trim();
  return title !== project.title ? { title, counter_settings: settings } : { counter_settings: settings };
}

/** The api's `errors.fields` of a save, on the form's fields (keys as `counter_settings.x`). */
export function fieldErrorsOf(fields: Readonly<Record<string, readonly string[]>>): CounterFormErrors {
  const out: CounterFormErrors = {};
  const first = (key: string) => fields[key]?.[0] ?? fields[`counter_settings.${key}`]?.[0];
  const title = first('title');
  const attribute = first('block_analytics_attribute');
  const whitelist = first('whitelisted_urls');
  const blacklist = first('blacklisted_urls');
  if (title) out.title = title;
  if (attribute) out.block_analytics_attribute = attribute;
  if (whitelist) out.whitelisted_urls = whitelist;
  if (blacklist) out.blacklisted_urls = blacklist;
  return out;
}

/** The name of each field as the page labels it, for the save bar's list of what is unsaved. */
const FIELD_LABELS: Record<keyof CounterForm, string> = {
  title: 'название сайта',
  color: 'цвет',
  counter_type: 'вид счётчика',
  merge_subdomains: 'поддомены',
  separate_www: 'www',
  track_hashes: 'хеш в адресе',
  track_user_id: 'ID пользователя',
  use_block_analytics: 'аналитика блоков',
  block_analytics_attribute: 'аналитика блоков',
  use_whitelist: 'белый список',
  whitelisted_urls: 'белый список',
  use_blacklist: 'черный список',
  blacklisted_urls: 'черный список',
};

/** What differs from the saved settings, by label, each once, in the page's order. */
export function unsavedLabels(form: CounterForm, saved: CounterForm): string[] {
  const labels = (Object.keys(FIELD_LABELS) as (keyof CounterForm)[])
    .filter((key) => JSON.stringify(form[key]) !== JSON.stringify(saved[key]))
    .map((key) => FIELD_LABELS[key]);
  return [...new Set(labels)];
}

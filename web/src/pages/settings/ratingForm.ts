/**
 * The rating form (spec 000 §2.7, §4, §5): its values from a project, its checks, and the PUT
 * body. Leaving the rating saves empty lists, in_rating false and public_stats false.
 */
import type { RatingForm } from '@stat/schemas/rating';
import type { Project } from '@stat/schemas/projects';
import { LISTED_STATUSES } from '../../data/rating';
import { checkKeywords, checkPublicStats, checkRegions, checkThemes, checkTitle, checkTypes } from '../../data/validation';

/** The form's values; public stats may be unchosen (null). */
export interface RatingFormValues {
  readonly title: string;
  readonly in_rating: boolean;
  readonly keywords: string;
  readonly public_stats: boolean | null;
  readonly categories: readonly number[];
  readonly regions: readonly number[];
  readonly types: readonly number[];
}

export type RatingField = 'title' | 'keywords' | 'public_stats' | 'categories' | 'regions' | 'types';

/** Whether a project takes part (or asked to): participation switch on. */
export function participates(project: Pick<Project, 'in_rating' | 'status'>): boolean {
  return project.in_rating || LISTED_STATUSES.has(project.status) || project.status === 'moderation';
}

/** The form for a project; public stats default to opened (spec 000 §3 form defaults). */
export function ratingFormOf(project: Pick<Project, 'title' | 'in_rating' | 'status' | 'keywords' | 'public_stats' | 'categories' | 'regions' | 'types'>): RatingFormValues {
  const inRating = participates(project);
  return {
    title: project.title,
    in_rating: inRating,
    keywords: project.keywords,
    public_stats: inRating ? project.public_stats : true,
    categories: project.categories.map((c) => c.id),
    regions: project.regions,
    types: project.types,
  };
}

/** The checks of a participating form; a form that leaves the rating has none. */
export function validateRatingForm(form: RatingFormValues): Partial<Record<RatingField, string>> {
  if (!form.in_rating) return {};
  const checks: Record<RatingField, string | null> = {
    title: checkTitle(form.title, 'rating'),
    keywords: checkKeywords(form.keywords),
    public_stats: checkPublicStats(form.public_stats),
    categories: checkThemes(form.categories),
    regions: checkRegions(form.regions),
    types: checkTypes(form.types),
  };
  const out: Partial<Record<RatingField, string>> = {};
  for (const [key, text] of Object.entries(checks) as [RatingField, string | null][]) if (text) out[key] = text;
  return out;
}

/** The PUT body: the form, or the emptied form when leaving. */
export function ratingPayload(form: RatingFormValues): RatingForm {
  if (!form.in_rating) {
    return { title: form.title.trim(), in_rating: false, keywords: form.keywords.trim(), public_stats: false, categories: [], regions: [], types: [] };
  }
  return {
    title: form.title.trim(),
    in_rating: true,
    keywords: form.keywords.trim(),
    public_stats: form.public_stats ?? true,
    categories: [...form.categories],
    regions: [...form.regions],
    types: [...form.types],
  };
}

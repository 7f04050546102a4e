/**
 * The rating (spec 000 §4): a project's statuses in it, its categories with their positions, the
 * dictionaries of the rating form and the form as `PUT /project/{id}` takes it. The api answers
 * and checks them; the web app reads and sends them.
 */

/** Every rating status of a project (spec 000 §4), as the api answers `status`. */
export const RATING_STATUSES = ['default', 'included', 'moderation', 'editing', 'excluded', 'unincluded', 'need_change', 'deleted', 'dropped_out'] as const;
export type RatingStatus = (typeof RATING_STATUSES)[number];

/** Whether a value is one of the rating statuses. */
export const isRatingStatus = (value: unknown): value is RatingStatus => (RATING_STATUSES as readonly unknown[]).includes(value);

/**
 * The rating statuses in which a site stands in the rating (specification 000, §4): listed in the
 * catalogue and in the rating report of its categories, and shown with its position.
 */
export const RATING_LISTED_STATUSES = ['included', 'editing', 'need_change'] as const satisfies readonly RatingStatus[];

/**
 * Whether a site is in the rating or on its way in (its form sent for moderation): its title then
 * changes only through the rating form (spec 000 §4).
 */
export function inRatingOrModeration(inRating: boolean, status: string): boolean {
  return inRating || (RATING_LISTED_STATUSES as readonly string[]).includes(status) || status === 'moderation';
}

/** A project's category in the rating with its position: what a row of the sites list shows. */
export interface RatingPlace {
  readonly id: number;
  readonly title: string;
  /** null until the positions are computed, or while the site is not listed */
  readonly position: number | null;
}

/** A category of a project as `GET /project/{id}` gives it: its place, its theme, its parent's title. */
export interface ProjectCategory extends RatingPlace {
  /** the parent theme's title, null for a top-level theme */
  readonly parent_title: string | null;
  /** the top-level theme: the parent, or the category itself */
  readonly theme_id: number;
  /** the category's title again, under the name spec 000 §3 gives it */
  readonly name: string;
  readonly positions: { readonly popularity: number | null };
}

/** A node of a rating dictionary (themes, types, regions) of `GET /api/project/config`. */
export interface RatingTreeNode {
  readonly id: number;
  readonly parent_id: number | null;
  readonly title: string;
  /** themes only: the top-level theme (the parent, or the node itself) */
  readonly theme_id?: number;
  readonly can_be_expanded: boolean;
}

/** `GET /api/project/config`: the rating form's dictionaries. */
export interface RatingConfig {
  readonly categories: readonly RatingTreeNode[];
  readonly types: readonly RatingTreeNode[];
  readonly regions: readonly RatingTreeNode[];
}

/** The rating form as `PUT /project/{id}` takes it (spec 000 §4). */
export interface RatingForm {
  readonly title: string;
  readonly in_rating: boolean;
  /** comma separated, 3 to 500 characters */
  readonly keywords: string;
  readonly public_stats: boolean;
  /** theme ids, 1 to 7 */
  readonly categories: readonly number[];
  /** region ids, at most 10 */
  readonly regions: readonly number[];
  /** type ids, at most 2 */
  readonly types: readonly number[];
}

/**
 * Rating participation rules of spec 000 §4: what each status is called and means, when the form
 * can be edited and saved, and what the rating cell of the sites list shows.
 */
import { isRatingStatus, RATING_LISTED_STATUSES, type RatingPlace, type RatingStatus } from '@stat/schemas/rating';

/** Label and hint of a rating status. */
export interface StatusText {
  readonly label: string;
  readonly hint: string;
  /** Tone of the badge. */
  readonly tone: 'neutral' | 'progress' | 'success' | 'danger';
}

const UNINCLUDED: StatusText = {
  label: 'Не участвует в рейтинге',
  hint: 'Заполните форму и отправьте заявку. После проверки модераторами сайт появится в каталоге.',
  tone: 'neutral',
};

const EDITING: StatusText = {
  label: 'На редактировании',
  hint: 'Изменения вступят в силу после подтверждения редакторами рейтинга.',
  tone: 'progress',
};

/** Texts of every status (spec 000 §4 table). */
const TEXTS_OF: Readonly<Record<RatingStatus, StatusText>> = {
  default: UNINCLUDED,
  unincluded: UNINCLUDED,
  moderation: {
    label: 'На модерации',
    hint: 'Заявка на проверке. После подтверждения модераторами сайт появится в каталоге.',
    tone: 'progress',
  },
  editing: EDITING,
  need_change: EDITING,
  included: {
    label: 'Участвует в рейтинге',
    hint: 'Сайт участвует в рейтинге и показывается в каталоге.',
    tone: 'success',
  },
  excluded: {
    label: 'Исключен из рейтинга',
    hint: 'Сайт исключен из рейтинга администрацией. Чтобы узнать причину, обратитесь в службу поддержки.',
    tone: 'danger',
  },
  dropped_out: {
    label: 'Выбыл из рейтинга',
    hint: 'Сайт выбыл из рейтинга из-за отсутствия посещаемости. Чтобы вернуться, обратитесь в службу поддержки.',
    tone: 'danger',
  },
  deleted: {
    label: 'Счётчик удален',
    hint: 'Счётчик удален. Чтобы участвовать в рейтинге, восстановите сайт из списка удаленных сайтов.',
    tone: 'danger',
  },
};

/** Texts of every status, by any name; unknown statuses read as «not in the rating» ({@link statusText}). */
export const STATUS_TEXTS: Readonly<Record<string, StatusText>> = TEXTS_OF;

/** The cell's text for a site outside the rating that may not join it (`can_be_in_rate` false). */
const CANNOT_BE_RATED: StatusText = {
  label: 'Не может участвовать в рейтинге',
  hint: 'Этот сайт не может участвовать в рейтинге.',
  tone: 'neutral',
};

/** The texts of a status. */
export function statusText(status: string): StatusText {
  return isRatingStatus(status) ? TEXTS_OF[status] : UNINCLUDED;
}

/** Statuses whose sites stand in the catalogue (rating reports are asked for only in these). */
export const LISTED_STATUSES: ReadonlySet<string> = new Set(RATING_LISTED_STATUSES);

/** What the rating form allows in a status. */
export interface RatingFormRules {
  /** The fields can be changed. */
  readonly editable: boolean;
  /** The participation switch can be changed. */
  readonly switchEnabled: boolean;
  /** The save button is shown. */
  readonly saveVisible: boolean;
}

/**
 * Spec 000 §4, as written: editing is disabled in editing, need_change and dropped_out; the save
 * button is hidden when the status is excluded, or unincluded with participation off; the
 * participation switch is disabled when the status is excluded. So in editing, need_change and
 * dropped_out the fields are locked but the site can still leave the rating (switch off, save).
 * Ours on top: an excluded site's fields are locked too (it cannot save), a deleted counter is
 * restored before anything else, and a site that cannot be rated (`can_be_in_rate` false, spec 000
 * §6) can only leave.
 */
export function ratingFormRules(status: string, participating: boolean, canBeInRate = true): RatingFormRules {
  const deleted = status === 'deleted';
  const excluded = status === 'excluded';
  const locked = status === 'editing' || status === 'need_change' || status === 'dropped_out' || excluded || deleted;
  const idle = status === 'unincluded' || status === 'default';
  return {
    editable: !locked && participating && canBeInRate,
    switchEnabled: !excluded && !deleted && (canBeInRate || participating),
    saveVisible: !excluded && !deleted && !(idle && !participating),
  };
}

/** Whether rating reports may be asked for (spec 000 §4); the demo project always may. */
export function ratingReportsAllowed(status: string, projectId: number, demoId = 7596044): boolean {
  return projectId === demoId || LISTED_STATUSES.has(status);
}

/** What the rating cell of a sites-list row shows (spec 000 §2.3). */
export type RatingCell =
  | { readonly kind: 'position'; readonly categories: readonly RatingPlace[] }
  | { readonly kind: 'join' }
  | { readonly kind: 'status'; readonly text: StatusText };

/**
 * A site in the rating (listed, with categories) shows its category and position; a site not in
 * the rating shows «Участвовать» to those who may edit it when it may be rated (spec 000 §6
 * "Rating participation needs can_be_in_rate"), «Не может участвовать в рейтинге» when it may not,
 * and the status to everyone else. A row without `can_be_in_rate` may be rated (spec 000 §3 default).
 */
export function ratingCell(row: {
  readonly status: string;
  readonly categories: readonly RatingPlace[];
  readonly can_edit_project: boolean;
  readonly can_be_in_rate?: boolean;
  readonly deleted?: boolean;
}): RatingCell {
  if (!row.deleted && LISTED_STATUSES.has(row.status) && row.categories.length > 0) return { kind: 'position', categories: row.categories };
  if (row.deleted) return { kind: 'status', text: statusText('deleted') };
  const idle = row.status === 'unincluded' || row.status === 'default' || !isRatingStatus(row.status);
  if (idle && row.can_be_in_rate === false) return { kind: 'status', text: CANNOT_BE_RATED };
  if (idle && row.can_edit_project) return { kind: 'join' };
  return { kind: 'status', text: statusText(row.status) };
}

import { describe, expect, it } from 'vitest';
import { inRatingOrModeration, isRatingStatus, RATING_LISTED_STATUSES, RATING_STATUSES } from './rating.js';

describe('rating statuses (spec 000 §4)', () => {
  it('are the nine of the specification', () => {
    expect(RATING_STATUSES).toEqual(['default', 'included', 'moderation', 'editing', 'excluded', 'unincluded', 'need_change', 'deleted', 'dropped_out']);
  });

  it('a status is known by its exact name only', () => {
    expect(isRatingStatus('need_change')).toBe(true);
    for (const value of ['Included', 'toString', '', null, 1]) expect(isRatingStatus(value)).toBe(false);
  });

  it('a site in the rating, or on its way in, has its title changed by the rating form only', () => {
    for (const status of RATING_LISTED_STATUSES) expect(inRatingOrModeration(false, status)).toBe(true);
    expect(inRatingOrModeration(false, 'moderation')).toBe(true);
    for (const status of ['default', 'unincluded', 'excluded', 'dropped_out', 'deleted']) expect(inRatingOrModeration(false, status)).toBe(false);
    expect(inRatingOrModeration(true, 'unincluded')).toBe(true);
  });
});

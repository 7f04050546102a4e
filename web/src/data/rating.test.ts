import { describe, expect, it } from 'vitest';
import { ratingCell, ratingFormRules, ratingReportsAllowed, statusText, STATUS_TEXTS } from './rating';

describe('rating status texts (spec 000 §4)', () => {
  it('has a label and hint for every status', () => {
    for (const status of ['default', 'included', 'moderation', 'editing', 'excluded', 'unincluded', 'need_change', 'deleted', 'dropped_out']) {
      expect(STATUS_TEXTS[status]?.label).toBeTruthy();
      expect(STATUS_TEXTS[status]?.hint).toBeTruthy();
    }
  });
  it('names what the statuses mean', () => {
    expect(statusText('moderation').hint).toContain('После подтверждения модераторами сайт появится в каталоге');
    expect(statusText('editing').label).toBe(statusText('need_change').label);
    expect(statusText('excluded').hint).toContain('обратитесь в службу поддержки');
    expect(statusText('dropped_out').hint).toContain('отсутствия посещаемости');
    expect(statusText('unknown-status')).toBe(statusText('unincluded'));
  });
});

describe('rating form rules (spec 000 §4)', () => {
  it.each([
    // status, participating → editable, switchEnabled, saveVisible
    ['unincluded', false, false, true, false],
    ['unincluded', true, true, true, true],
    ['default', false, false, true, false],
    ['moderation', true, true, true, true],
    ['included', true, true, true, true],
    ['included', false, false, true, true],
    // Locked fields, but the site may still leave: the switch works and save is shown.
    ['editing', true, false, true, true],
    ['need_change', true, false, true, true],
    ['dropped_out', true, false, true, true],
    ['dropped_out', false, false, true, true],
    ['excluded', false, false, false, false],
    ['excluded', true, false, false, false],
    ['deleted', false, false, false, false],
  ] as const)('%s, participating %s', (status, participating, editable, switchEnabled, saveVisible) => {
    expect(ratingFormRules(status, participating)).toEqual({ editable, switchEnabled, saveVisible });
  });

  it('a site that cannot be rated cannot join', () => {
    expect(ratingFormRules('unincluded', false, false).switchEnabled).toBe(false);
    expect(ratingFormRules('included', true, false).switchEnabled).toBe(true);
  });

  it('rating reports: included, editing, need_change, and the demo project', () => {
    expect(ratingReportsAllowed('included', 1)).toBe(true);
    expect(ratingReportsAllowed('need_change', 1)).toBe(true);
    expect(ratingReportsAllowed('moderation', 1)).toBe(false);
    expect(ratingReportsAllowed('unincluded', 7596044)).toBe(true);
  });
});

describe('rating cell of the list (spec 000 §2.3)', () => {
  const category = { id: 3, title: 'Новости', position: 5 };
  it('shows the position for a listed site', () => {
    expect(ratingCell({ status: 'included', categories: [category], can_edit_project: false })).toEqual({ kind: 'position', categories: [category] });
  });
  it('offers «Участвовать» to editors of a site not in the rating', () => {
    expect(ratingCell({ status: 'unincluded', categories: [], can_edit_project: true })).toEqual({ kind: 'join' });
  });
  it('offers nothing but a status when the site cannot be rated (spec 000 §6)', () => {
    expect(ratingCell({ status: 'unincluded', categories: [], can_edit_project: true, can_be_in_rate: false })).toEqual({
      kind: 'status',
      text: { label: 'Не может участвовать в рейтинге', hint: 'Этот сайт не может участвовать в рейтинге.', tone: 'neutral' },
    });
    expect(ratingCell({ status: 'default', categories: [], can_edit_project: false, can_be_in_rate: false })).toMatchObject({ kind: 'status', text: { label: 'Не может участвовать в рейтинге' } });
    expect(ratingCell({ status: 'unincluded', categories: [], can_edit_project: true, can_be_in_rate: true })).toEqual({ kind: 'join' });
    expect(ratingCell({ status: 'included', categories: [category], can_edit_project: true, can_be_in_rate: false })).toEqual({ kind: 'position', categories: [category] });
  });
  it('shows the status to others', () => {
    expect(ratingCell({ status: 'unincluded', categories: [], can_edit_project: false })).toMatchObject({ kind: 'status', text: { label: 'Не участвует в рейтинге' } });
    expect(ratingCell({ status: 'moderation', categories: [category], can_edit_project: true })).toMatchObject({ kind: 'status', text: { label: 'На модерации' } });
    expect(ratingCell({ status: 'excluded', categories: [], can_edit_project: true })).toMatchObject({ kind: 'status', text: { label: 'Исключен из рейтинга' } });
    expect(ratingCell({ status: 'unincluded', categories: [], can_edit_project: true, deleted: true })).toMatchObject({ kind: 'status', text: { label: 'Счётчик удален' } });
  });
});

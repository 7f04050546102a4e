import { describe, expect, it } from 'vitest';
import type { AccessUser } from '@stat/schemas/access';
import { testCounterSettings } from '../../testing/fixtures';
import { isChangeable, isListed, levelLabel, payloadOf, withAdded, without, withLevel } from './accessList';
import { counterPayload, fieldErrorsOf, formFromProject, isRated, validateCounterForm } from './counterForm';
import { participates, ratingFormOf, ratingPayload, validateRatingForm } from './ratingForm';

const settings = testCounterSettings;
const project = { title: 'Мой сайт', counter_settings: settings };

describe('counter settings form (spec 000 §2.6, §3)', () => {
  it('shows merge_www as the inverse flag and sends it back inverted', () => {
    const form = formFromProject(project);
    expect(form.separate_www).toBe(false);
    expect(counterPayload({ ...form, separate_www: true }, project).counter_settings.merge_www).toBe(false);
    expect(counterPayload(form, project).counter_settings.merge_www).toBe(true);
  });

  it('sends the title only when it changed', () => {
    const form = formFromProject(project);
    expect(counterPayload(form, project)).not.toHaveProperty('title');
    expect(counterPayload({ ...form, title: ' Новое имя ' }, project).title).toBe('Новое имя');
  });

  it('a blacklist switched off sends an empty list', () => {
    const form = formFromProject({ ...project, counter_settings: { ...settings, blacklisted_urls: ['spam.example'] } });
    expect(form.use_blacklist).toBe(true);
    expect(counterPayload({ ...form, use_blacklist: false }, project).counter_settings.blacklisted_urls).toEqual([]);
  });

  it('checks the title (not for rated sites), the attribute and every list entry', () => {
    const form = formFromProject(project);
    expect(validateCounterForm({ ...form, title: '' }, false)).toEqual({ title: 'Обязательное поле' });
    expect(validateCounterForm({ ...form, title: '' }, true)).toEqual({});
    expect(validateCounterForm({ ...form, use_block_analytics: true, block_analytics_attribute: '' }, false)).toEqual({ block_analytics_attribute: 'Обязательное поле' });
    expect(validateCounterForm({ ...form, use_whitelist: true, whitelisted_urls: ['https://ok.ru', 'bad'] }, false)).toEqual({ whitelist: { 1: 'Введен неправильный URL' } });
    expect(validateCounterForm({ ...form, use_whitelist: true, whitelisted_urls: [] }, false)).toEqual({ whitelisted_urls: 'Обязательное поле' });
    expect(validateCounterForm({ ...form, use_blacklist: true, blacklisted_urls: [''] }, false)).toEqual({ blacklist: { 0: 'Обязательное поле' } });
  });

  it('places the api’s field texts on the form', () => {
    expect(fieldErrorsOf({ title: ['Минимум 3 символа'], 'counter_settings.blacklisted_urls': ['Введен неправильный URL'], other: ['x'] })).toEqual({
      title: 'Минимум 3 символа',
      blacklisted_urls: 'Введен неправильный URL',
    });
  });

  it('a site in or on the way to the rating is rated', () => {
    expect(isRated({ in_rating: false, status: 'unincluded' })).toBe(false);
    expect(isRated({ in_rating: false, status: 'moderation' })).toBe(true);
    expect(isRated({ in_rating: true, status: 'unincluded' })).toBe(true);
  });
});

describe('rating form (spec 000 §2.7, §4, §5)', () => {
  const base = { title: 'Мой сайт', in_rating: false, status: 'unincluded' as const, keywords: '', public_stats: true, categories: [], regions: [], types: [] };

  it('defaults public stats to opened', () => {
    expect(ratingFormOf({ ...base, public_stats: false }).public_stats).toBe(true);
  });

  it('takes the participation from the status', () => {
    expect(participates({ in_rating: false, status: 'moderation' })).toBe(true);
    expect(participates({ in_rating: false, status: 'excluded' })).toBe(false);
  });

  it('checks a participating form with the spec texts', () => {
    const form = { ...ratingFormOf(base), in_rating: true, title: 'a'.repeat(56), public_stats: null };
    expect(validateRatingForm(form)).toEqual({
      title: 'Превышен лимит символов',
      keywords: 'Обязательное поле',
      public_stats: 'Необходимо выбрать один из пунктов',
      categories: 'Обязательное поле',
    });
    expect(validateRatingForm({ ...form, title: 'Сайт', keywords: 'новости', public_stats: true, categories: [1, 2, 3, 4, 5, 6, 7, 8], types: [1, 2, 3], regions: Array.from({ length: 11 }, (_, i) => i) })).toEqual({
      categories: 'Максимальное количество тем: 7',
      types: 'Максимальное количество типов: 2',
      regions: 'Максимальное количество регионов: 10',
    });
  });

  it('leaving saves empty lists, in_rating false and public_stats false', () => {
    const form = { ...ratingFormOf({ ...base, in_rating: true, status: 'included', keywords: 'новости', categories: [{ id: 3, title: 'Новости', position: 1, parent_title: null, theme_id: 3, name: 'Новости', positions: { popularity: 1 } }], regions: [101], types: [1] }), in_rating: false };
    expect(validateRatingForm(form)).toEqual({});
    expect(ratingPayload(form)).toEqual({ title: 'Мой сайт', in_rating: false, keywords: 'новости', public_stats: false, categories: [], regions: [], types: [] });
  });
});

describe('access list (spec 000 §2.8, §3)', () => {
  const users: AccessUser[] = [
    { email: 'owner@example.com', access_level: 0, can_edit_project: true, is_owner: true, is_current_user: true, user: { email: 'owner@example.com' } },
    { email: 'viewer@example.com', access_level: 1, can_edit_project: false, is_owner: false, is_current_user: false, user: { email: 'viewer@example.com' } },
  ];

  it('labels levels: nonzero is view', () => {
    expect(levelLabel(0)).toBe('Редактирование');
    expect(levelLabel(1)).toBe('Только просмотр');
    expect(levelLabel(2)).toBe('Только просмотр');
  });

  it('sends every user with email, access_level and can_edit_project', () => {
    expect(payloadOf(users)).toEqual([
      { email: 'owner@example.com', access_level: 0, can_edit_project: true },
      { email: 'viewer@example.com', access_level: 1, can_edit_project: false },
    ]);
    expect(withAdded(users, ' new@example.com ', 0).at(-1)).toEqual({ email: 'new@example.com', access_level: 0, can_edit_project: true });
    expect(withLevel(users, 'viewer@example.com', 0)[1]).toEqual({ email: 'viewer@example.com', access_level: 0, can_edit_project: true });
    expect(without(users, 'viewer@example.com')).toHaveLength(1);
  });

  it('finds an e-mail already in the list whatever its case', () => {
    expect(isListed(users, 'Viewer@Example.com')).toBe(true);
    expect(isListed(users, 'other@example.com')).toBe(false);
  });

  it('one cannot change one’s own access or the owner’s', () => {
    expect(isChangeable(users[0] as AccessUser, 'owner@example.com')).toBe(false);
    expect(isChangeable(users[1] as AccessUser, 'owner@example.com')).toBe(true);
    expect(isChangeable({ ...(users[1] as AccessUser), is_current_user: false }, 'viewer@example.com')).toBe(false);
  });
});

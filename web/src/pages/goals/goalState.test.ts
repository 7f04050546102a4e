import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api';
import { testGoal as goal } from '../../testing/fixtures';
import { copyTitle, goalFailure, goalRights, rowActions } from './goalState';

describe('who may do what on the goals page (spec 002 §5)', () => {
  it('creating needs a login, and on the demo project the right to edit it', () => {
    expect(goalRights('5', true, false)).toEqual({ write: true, demo: false, refusal: null });
    expect(goalRights('5', false, false)).toEqual({ write: false, demo: false, refusal: 'login' });
    expect(goalRights('7596044', true, false)).toEqual({ write: false, demo: true, refusal: 'demo' });
    expect(goalRights('7596044', true, true)).toEqual({ write: true, demo: true, refusal: null });
  });

  it('an own personal goal: add conversion, make public, edit, copy, delete', () => {
    expect(rowActions(goal({}), goalRights('5', true, true), true)).toEqual({ addConversion: true, makePublic: true, edit: true, copy: true, remove: true });
  });

  it('a protected goal is not edited; a personal one may still be made public', () => {
    expect(rowActions(goal({ is_protected: true, access: 'common' }), goalRights('5', true, true), true)).toEqual({ addConversion: true, makePublic: false, edit: false, copy: true, remove: true });
    expect(rowActions(goal({ is_protected: true }), goalRights('5', true, true), true)).toEqual({ addConversion: true, makePublic: true, edit: false, copy: true, remove: true });
  });

  it('another user’s public goal: an editor edits it, a viewer only copies it; delete as the api says', () => {
    const theirs = goal({ access: 'common', is_owner: false, can_delete: false });
    expect(rowActions(theirs, goalRights('5', true, true), true)).toEqual({ addConversion: true, makePublic: false, edit: true, copy: true, remove: false });
    expect(rowActions(theirs, goalRights('5', true, false), false)).toEqual({ addConversion: true, makePublic: false, edit: false, copy: true, remove: false });
  });

  it('on the demo project edit and «make public» are hidden, even for an administrator, who may delete its goals; a user only looks', () => {
    const seeded = goal({ access: 'common', is_owner: false, email: null });
    expect(rowActions({ ...seeded, can_delete: true }, goalRights('7596044', true, true), true)).toEqual({ addConversion: true, makePublic: false, edit: false, copy: true, remove: true });
    expect(rowActions({ ...seeded, can_delete: false }, goalRights('7596044', true, false), false)).toEqual({ addConversion: false, makePublic: false, edit: false, copy: false, remove: false });
  });

  it('nobody logged in does nothing but look', () => {
    expect(rowActions(goal({ access: 'common', is_owner: false, can_delete: false }), goalRights('5', false, false), false)).toEqual({ addConversion: false, makePublic: false, edit: false, copy: false, remove: false });
  });

  it('a copy is titled «Копия_ …», within 255 characters', () => {
    expect(copyTitle('Корзина')).toBe('Копия_ Корзина');
    expect([...copyTitle('я'.repeat(255))]).toHaveLength(255);
  });

  it('the rate limit reads as the specification’s text; other refusals as the api says', () => {
    expect(goalFailure(new ApiError(400, 'Rate limit exceeded'))).toBe('Превышен лимит создания целей в минуту. Пожалуйста, подождите минуту и попробуйте снова');
    expect(goalFailure(new ApiError(400, 'Не все поля в условии заполнены'))).toBe('Не все поля в условии заполнены');
    expect(goalFailure(new ApiError(500, 'Oops'))).toBe('Не удалось сохранить. Попробуйте ещё раз');
  });
});

import { describe, expect, it } from 'vitest';
import { goalConditionFilled, goalFlagsConsistent, goalTitleProblem, switchGoalFlag, type GoalFlags } from './goals.js';

const OFF: GoalFlags = { access: 'own', is_protected: false, is_td_sending: false };
const ALL: GoalFlags = { access: 'common', is_protected: true, is_td_sending: true };

describe('the goal flags force each other (spec 002 §4)', () => {
  it('sending on forces public and protected on', () => {
    expect(switchGoalFlag(OFF, 'is_td_sending', true)).toEqual(ALL);
  });

  it('public off clears sending, and leaves protected', () => {
    expect(switchGoalFlag(ALL, 'access', 'own')).toEqual({ access: 'own', is_protected: true, is_td_sending: false });
  });

  it('protected off clears sending, and leaves public', () => {
    expect(switchGoalFlag(ALL, 'is_protected', false)).toEqual({ access: 'common', is_protected: false, is_td_sending: false });
  });

  it('public or protected on alone touch nothing else', () => {
    expect(switchGoalFlag(OFF, 'access', 'common')).toEqual({ ...OFF, access: 'common' });
    expect(switchGoalFlag(OFF, 'is_protected', true)).toEqual({ ...OFF, is_protected: true });
  });

  it('every switch leaves consistent flags', () => {
    const states: GoalFlags[] = [OFF, ALL, { access: 'common', is_protected: false, is_td_sending: false }, { access: 'own', is_protected: true, is_td_sending: false }];
    for (const state of states) {
      for (const next of [
        switchGoalFlag(state, 'access', 'own'),
        switchGoalFlag(state, 'access', 'common'),
        switchGoalFlag(state, 'is_protected', false),
        switchGoalFlag(state, 'is_protected', true),
        switchGoalFlag(state, 'is_td_sending', true),
        switchGoalFlag(state, 'is_td_sending', false),
      ]) {
        expect(goalFlagsConsistent(next)).toBe(true);
      }
    }
  });
});

describe('the goal form rules (§5)', () => {
  it.each([
    ['', 'Поле не заполнено'],
    ['   ', 'Поле не заполнено'],
    [' ab ', 'Минимум 3 символа'],
    ['abc', null],
    ['я'.repeat(255), null],
    ['я'.repeat(256), 'Превышен лимит символов'],
  ])('title %j: %s', (title, problem) => {
    expect(goalTitleProblem(title)).toBe(problem);
  });

  it.each([
    [{ key: 'url', op: 'like', value: '*/cart*' }, true],
    [{ key: 'url', op: 'include', value: ['a', 'b'] }, true],
    [{ key: 'view_depth', op: '>', value: 0 }, true],
    [{ key: 'url', op: 'like', value: ' ' }, false],
    [{ key: 'url', op: 'include', value: [] }, false],
    [{ key: 'url', op: 'include', value: ['a', ''] }, false],
    [{ key: '', op: '=', value: 'x' }, false],
    [{ key: 'url', value: 'x' }, false],
  ])('condition %j filled: %s', (rule, filled) => {
    expect(goalConditionFilled(rule)).toBe(filled);
  });
});

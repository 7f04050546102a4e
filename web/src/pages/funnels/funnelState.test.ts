import { describe, expect, it } from 'vitest';
import { funnelPercentText } from '@stat/schemas/funnels';
import { copyOf, dropStep, funnelFileName, funnelFormErrors, hasErrors, moveStep } from './funnelState';

describe('the funnel form (spec 002 §5)', () => {
  it('needs a title, 2 to 11 steps, and a title and a goal in each step', () => {
    expect(funnelFormErrors(' ', [{ title: 'A', goals: [1] }])).toEqual({ title: 'Заполните поле', steps: 'Добавьте не менее 2 шагов', stepTitles: [null], stepGoals: [null] });
    expect(funnelFormErrors('Воронка', [{ title: '', goals: [1] }, { title: 'B', goals: [] }])).toEqual({
      title: null,
      steps: null,
      stepTitles: ['Заполните поле', null],
      stepGoals: [null, 'Добавьте хотя бы 1 условие'],
    });
    expect(hasErrors(funnelFormErrors('Воронка', Array.from({ length: 11 }, () => ({ title: 'S', goals: [1] }))))).toBe(false);
    expect(funnelFormErrors('Воронка', Array.from({ length: 12 }, () => ({ title: 'S', goals: [1] }))).steps).toBe('Не более 11 шагов');
  });

  it('a copy is titled «Копия_ …» with the same steps', () => {
    expect(copyOf({ id: 1, title: 'Покупка', steps: [{ step_number: 1, step_title: 'Каталог', goals: [{ goal_id: 5, goal_title: 'К' }] }] })).toEqual({
      title: 'Копия_ Покупка',
      steps: [{ title: 'Каталог', goals: [5] }],
    });
  });

  it('drops a dragged step in another’s place, the others shifting', () => {
    expect(dropStep(['a', 'b', 'c', 'd'], 0, 2)).toEqual(['b', 'c', 'a', 'd']);
    expect(dropStep(['a', 'b', 'c', 'd'], 3, 1)).toEqual(['a', 'd', 'b', 'c']);
    expect(dropStep(['a', 'b'], 1, 1)).toEqual(['a', 'b']);
  });

  it('moves a step, and leaves the ends alone', () => {
    expect(moveStep(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moveStep(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
  });

  it('shows percents with 2 decimals and a comma, under 0.01 as «< 0.01»', () => {
    expect([funnelPercentText(33.33), funnelPercentText(0.004), funnelPercentText(0), funnelPercentText(null)]).toEqual(['33,33', '< 0.01', '0,00', '—']);
  });
});

describe('the downloads\' name', () => {
  it('is the title and the period, as the api names the CSV', () => {
    expect(funnelFileName('Поиск и подписка', { start: '2026-11-22', end: '2026-11-28' }, 'png')).toBe('Воронка Поиск и подписка 2026-11-22 — 2026-11-28.png');
  });

  it('names one date for a day', () => {
    expect(funnelFileName('Поиск', { start: '2026-11-28', end: '2026-11-28' }, 'csv')).toBe('Воронка Поиск 2026-11-28.csv');
  });
});

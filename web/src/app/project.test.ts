import { describe, expect, it } from 'vitest';
import { counterPending, DEMO_PROJECT_ID } from './project';

describe('counterPending', () => {
  it('is true for a site whose counter has sent nothing yet', () => {
    expect(counterPending({ id: 8000001, counter_is_set: false })).toBe(true);
  });

  it('is false once the counter sent a hit', () => {
    expect(counterPending({ id: 8000001, counter_is_set: true })).toBe(false);
  });

  it('is false for the demo, even with no counter set', () => {
    expect(counterPending({ id: DEMO_PROJECT_ID, counter_is_set: false })).toBe(false);
  });
});

import type { Plan } from '../plan-types.js';

/**
 * The compiler tests' plan: project 7's events over two days of November 2026, visits of the
 * whole site read exactly, no filter. A test names only what it changes.
 */
export function testPlan(changes: Partial<Plan> = {}): Plan {
  return {
    projectId: 7,
    dateStart: '2026-11-02',
    dateEnd: '2026-11-03',
    source: 'events',
    scope: 'visit',
    sample: 1,
    metrics: ['visits'],
    path: [],
    parents: [],
    filters: [],
    metricFilters: [],
    skipEmpty: false,
    ...changes,
  };
}

import { describe, expect, it } from 'vitest';
import { decide, DEMO_PROJECT_ID, type ProjectFacts } from './project-access.js';
import type { Principal } from './principal.js';

// Needs: nothing. The one rule of view and edit, case by case.
const PERMISSIONS: Record<number, string[]> = {
  1: ['read_all_projects', 'edit_all_projects', 'edit_demo_project', 'moderate_rating', 'manage_users', 'create_projects', 'can_read_dev_reports'],
  2: ['read_all_projects', 'edit_all_projects', 'moderate_rating', 'create_projects'],
  3: ['read_all_projects', 'create_projects', 'can_read_dev_reports'],
  4: ['read_all_projects', 'moderate_rating', 'create_projects'],
  5: ['create_projects'],
  6: [],
  7: ['create_projects'],
};
const user = (id: number, roleId = 7): Principal => ({
  id,
  email: `u${id}@example.com`,
  userName: '',
  roleId,
  authType: 'password',
  isStaff: roleId <= 4,
  permissions: new Set(PERMISSIONS[roleId]),
  snackbars: {},
  metaTips: {},
});
const project = (facts: Partial<ProjectFacts> = {}): ProjectFacts => ({ id: 8_000_001, deleted: false, ownerId: 10, accessLevel: null, widget: false, ...facts });
const rights = (u: Principal | null, f: ProjectFacts) => {
  const r = decide(u, f);
  return `${r.view ? 'view' : '-'} ${r.edit ? 'edit' : '-'}`;
};

describe('decide', () => {
  it.each([
    ['anonymous', null, project(), '- -'],
    ['a stranger', user(11), project(), '- -'],
    ['the owner', user(10), project(), 'view edit'],
    ['access level 1', user(11), project({ accessLevel: 1 }), 'view -'],
    ['access level 0', user(11), project({ accessLevel: 0 }), 'view edit'],
    ['ADMIN', user(11, 1), project(), 'view edit'],
    ['SUPPORT', user(11, 2), project(), 'view edit'],
    ['ANALYST', user(11, 3), project(), 'view -'],
    ['MANAGER', user(11, 4), project(), 'view -'],
    ['COUNTER_OWNER', user(11, 5), project(), '- -'],
    ['COUNTER_READONLY', user(11, 6), project(), '- -'],
    ['anonymous on the demo', null, project({ id: DEMO_PROJECT_ID, ownerId: null }), 'view -'],
    ['a user on the demo', user(11), project({ id: DEMO_PROJECT_ID, ownerId: null }), 'view -'],
    ['SUPPORT on the demo', user(11, 2), project({ id: DEMO_PROJECT_ID, ownerId: null }), 'view -'],
    ['a shared editor on the demo', user(11), project({ id: DEMO_PROJECT_ID, ownerId: null, accessLevel: 0 }), 'view -'],
    ['ADMIN on the demo', user(11, 1), project({ id: DEMO_PROJECT_ID, ownerId: null }), 'view edit'],
  ])('%s: %s', (_name, who, facts, expected) => {
    expect(rights(who, facts)).toBe(expected);
  });

  it('marks the owner as owner, nobody else', () => {
    expect(decide(user(10), project()).owner).toBe(true);
    expect(decide(user(11, 1), project()).owner).toBe(false);
  });
});

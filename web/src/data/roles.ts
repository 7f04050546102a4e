/** Role rules of spec 000 §6. */
import { ROLE, type CurrentUser } from '@stat/schemas/accounts';

/** Only ADMIN, SUPPORT, ANALYST and MANAGER may switch the list to all accessible projects. */
export function canSeeAllProjects(roleId: number): boolean {
  return roleId === ROLE.ADMIN || roleId === ROLE.SUPPORT || roleId === ROLE.ANALYST || roleId === ROLE.MANAGER;
}

/** Whether the user may create counters (the api demands create_projects). */
export function canCreateProjects(user: Pick<CurrentUser, 'role_permissions'> | null): boolean {
  return user !== null && user.role_permissions.includes('create_projects');
}

/** Role ids of the specification. */
export const ROLE = { ADMIN: 1, SUPPORT: 2, ANALYST: 3, MANAGER: 4, COUNTER_OWNER: 5, COUNTER_READONLY: 6, USER: 7 } as const;

/** Permissions a role grants; migrations/postgres/0001_accounts.sql assigns them. */
export const PERMISSIONS = [
  'read_all_projects',
  'edit_all_projects',
  'edit_demo_project',
  'moderate_rating',
  'manage_users',
  'create_projects',
  'can_read_dev_reports',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** The logged-in user of a request. */
export interface Principal {
  id: number;
  email: string;
  userName: string;
  roleId: number;
  authType: string;
  isStaff: boolean;
  permissions: ReadonlySet<string>;
  snackbars: Record<string, unknown>;
  metaTips: Record<string, unknown>;
}

/** What the guard attaches to a request. */
export interface RequestAuth {
  user: Principal | null;
  /** Hash of the session token, to end this session on logout. */
  sessionKey: string | null;
}

export function can(user: Principal | null, permission: Permission): boolean {
  return user !== null && user.permissions.has(permission);
}

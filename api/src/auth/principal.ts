import type { Permission } from '@stat/schemas/accounts';

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

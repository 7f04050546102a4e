import type { Principal } from '../auth/principal.js';

/** The hints the web app shows once per user; false until the user dismissed one. */
const META_TIPS = ['reportAdditional', 'reportCsv', 'reportFilter', 'reportGraph', 'reportSettings', 'reportViews'] as const;

/** `GET /user/current`: the user as specification 000, §3 names the fields. */
export interface UserView {
  login: string;
  id: number;
  email: string;
  user_name: string;
  auth_type: string;
  is_top100_staff: boolean;
  role_permissions: string[];
  role_id: number;
  snackbars: Record<string, unknown>;
  metaTips: Record<string, boolean>;
}

export function userView(user: Principal): UserView {
  return {
    login: user.email,
    id: user.id,
    email: user.email,
    user_name: user.userName,
    auth_type: user.authType,
    is_top100_staff: user.isStaff,
    role_permissions: [...user.permissions].sort(),
    role_id: user.roleId,
    snackbars: user.snackbars,
    metaTips: Object.fromEntries(META_TIPS.map((tip) => [tip, user.metaTips[tip] === true])),
  };
}

import { hintStateOf, META_TIPS, type HintState } from '@stat/schemas/hints';
import type { Principal } from '../auth/principal.js';

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
  /** The meta tips the user closed (true), as spec 000 §3 names them. */
  metaTips: Record<string, boolean>;
  /** What of the report hints the user hid, and the report views counted for the meta tips. */
  hints: HintState;
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
    hints: hintStateOf(user.metaTips),
  };
}

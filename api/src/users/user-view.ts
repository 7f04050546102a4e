import { hintStateOf, META_TIPS } from '@stat/schemas/hints';
import type { CurrentUser } from '@stat/schemas/accounts';
import type { Principal } from '../auth/principal.js';

/** `GET /user/current`: the user as specification 000, §3 names the fields. */
export function userView(user: Principal): CurrentUser {
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

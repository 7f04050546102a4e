/**
 * The access list as PATCH sends it (spec 000 §3 "Access user (on save)"): every user with
 * email, access_level (0 edit, 1 view) and can_edit_project (true for edit). The owner and the
 * caller are sent as they are; the api leaves them unchanged.
 */
import type { AccessGrant, AccessUser } from '@stat/schemas/access';

/** A nonzero access level means view, zero means edit. */
export function levelLabel(accessLevel: number): string {
  return accessLevel === 0 ? 'Редактирование' : 'Только просмотр';
}

/** One user of the PATCH body, with every field. */
export type AccessEntry = Required<AccessGrant>;

function entry(email: string, accessLevel: number): AccessEntry {
  const level = accessLevel === 0 ? 0 : 1;
  return { email, access_level: level, can_edit_project: level === 0 };
}

/** The list as it stands. */
export function payloadOf(users: readonly AccessUser[]): AccessEntry[] {
  return users.map((u) => entry(u.email, u.access_level));
}

/** Whether an e-mail is already in the list (case does not matter). */
export function isListed(users: readonly AccessUser[], email: string): boolean {
  const wanted = email.trim().toLowerCase();
  return users.some((u) => u.email.toLowerCase() === wanted);
}

/** The list with one more user. */
export function withAdded(users: readonly AccessUser[], email: string, accessLevel: number): AccessEntry[] {
  return [...payloadOf(users), entry(email.trim(), accessLevel)];
}

/** The list with one user's level changed. */
export function withLevel(users: readonly AccessUser[], email: string, accessLevel: number): AccessEntry[] {
  return users.map((u) => entry(u.email, u.email === email ? accessLevel : u.access_level));
}

/** The list without one user. */
export function without(users: readonly AccessUser[], email: string): AccessEntry[] {
  return payloadOf(users.filter((u) => u.email !== email));
}

/** Whether a user's row can be changed by the caller: not their own, not the owner's. */
export function isChangeable(user: AccessUser, currentEmail: string | null | undefined): boolean {
  if (user.is_owner) return false;
  if (user.is_current_user) return false;
  return !(currentEmail && user.email.toLowerCase() === currentEmail.toLowerCase());
}

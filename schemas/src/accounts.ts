/**
 * Accounts (spec 000 §3, §6, §7): the roles and their permissions, the user as `GET /user/current`
 * answers it, and the bodies of registration, login and the profile. The api answers and checks
 * them; the web app sends and reads them.
 */
import type { HintState } from './hints.js';

/** Role ids (spec 000 §3). */
export const ROLE = { ADMIN: 1, SUPPORT: 2, ANALYST: 3, MANAGER: 4, COUNTER_OWNER: 5, COUNTER_READONLY: 6, USER: 7 } as const;

/** Permissions a role grants; api/migrations/postgres/0001_accounts.sql assigns them. */
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

/** `GET /user/current` (and the answer of login, registration and the profile's calls): the user as spec 000 §3 names the fields. */
export interface CurrentUser {
  readonly login: string;
  readonly id: number;
  readonly email: string;
  readonly user_name: string;
  readonly auth_type: string;
  readonly is_top100_staff: boolean;
  /** the role's permissions, sorted */
  readonly role_permissions: readonly string[];
  readonly role_id: number;
  readonly snackbars: Readonly<Record<string, unknown>>;
  /** The meta tips the user closed (true), as spec 000 §3 names them. */
  readonly metaTips: Readonly<Record<string, boolean>>;
  /** The report hints the user hid (spec 001 §2), and the report views counted for the meta tips. */
  readonly hints: HintState;
}

/** `POST /auth/register`. */
export interface RegisterBody {
  readonly email: string;
  readonly password: string;
  readonly user_name?: string;
}

/** `POST /auth/login`. */
export interface LoginBody {
  readonly email: string;
  readonly password: string;
}

/** `PUT /user/current`: the profile's name (empty clears it). */
export interface ProfileBody {
  readonly user_name: string;
}

/** `POST /user/current/password`: the current password proves it is the user. */
export interface PasswordChangeBody {
  readonly current_password: string;
  readonly new_password: string;
}

/**
 * Access to a project (spec 000 §3, §7): the users it is shared with, the requests for access,
 * and proving the ownership of a site. The api answers and checks them; the web app reads and
 * sends them.
 */

/** Access levels (spec 000 §6): 0 edits, 1 only views. */
export const ACCESS_LEVEL = { edit: 0, view: 1 } as const;

/** A user with access to a project (`GET`/`PATCH /project/{id}/access`). */
export interface AccessUser {
  readonly email: string;
  /** 0 edit, 1 view. */
  readonly access_level: number;
  readonly can_edit_project: boolean;
  /** the counter's owner: always edits, cannot be changed */
  readonly is_owner: boolean;
  readonly is_current_user: boolean;
  /** the e-mail again, as the original nests it */
  readonly user: { readonly email: string };
}

/** `GET`/`PATCH /project/{id}/access`. */
export interface AccessUsers {
  readonly users: readonly AccessUser[];
}

/** A user as `PATCH /project/{id}/access` sends them. */
export interface AccessGrant {
  readonly email: string;
  /** 0 edit, 1 view. */
  readonly access_level: number;
  readonly can_edit_project?: boolean;
}

/** The users `PATCH /project/{id}/access` sends: every shared user, the owner's and the caller's own entries unchanged. */
export interface AccessGrants {
  readonly users: readonly AccessGrant[];
}

/** `PATCH /project/{id}/access`. */
export interface AccessUpdate {
  readonly data: AccessGrants;
}

/** `POST /user/exists`. */
export interface UserExistsBody {
  readonly email: string;
}

/** The answer of `POST /user/exists`. */
export interface UserExists {
  readonly exists: boolean;
}

/** A pending access request (`GET /user/current/access_requests_list[/{projectId}]`). */
export interface AccessRequest {
  readonly access_request_id: number;
  /** the id again, as the original names it */
  readonly accessRequestId: number;
  readonly project_id: number;
  readonly project_title: string;
  /** who asks */
  readonly email: string;
  /** ISO 8601 */
  readonly created: string;
}

/** `GET /user/current/access_requests_list[/{projectId}]`. */
export interface AccessRequests {
  readonly data: readonly AccessRequest[];
  readonly total: number;
}

/**
 * `POST /project/{projectId}/access_request/{requestId}`: grant or decline. Spec 000 §7 sends the
 * project's and the request's ids in the body as well; they must repeat the path.
 */
export interface AccessDecision {
  readonly action_request: 'access' | 'decline';
  readonly project_id?: number;
  readonly access_request_id?: number;
  readonly accessRequestId?: number;
  /** 0 edit, 1 view; by default from `can_edit_project` */
  readonly access_level?: number;
  readonly can_edit_project?: boolean;
}

/** `POST /project/{id}/verify_ownership`: the meta tag to put on the site, and whether it was found there. */
export interface OwnershipCheck {
  readonly verified: boolean;
  readonly meta_tag: string;
}

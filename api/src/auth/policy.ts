import { SetMetadata } from '@nestjs/common';
import type { Permission } from '@stat/schemas/accounts';

/**
 * Who may call a route. Every route declares one; the access guard refuses a route without
 * a policy, so a forgotten declaration is a loud 500, never an open door.
 */
export type Policy =
  | { kind: 'public' }
  | { kind: 'user' }
  | { kind: 'permission'; permission: Permission }
  | {
      kind: 'project';
      /**
       * view, edit; widget: the public badge, open when the project shows a widget, else as
       * view; known: any logged-in user, the project must exist (access requests, ownership)
       */
      level: 'view' | 'edit' | 'widget' | 'known';
      /** a permission demanded besides the level */
      permission?: Permission;
      /** the path parameter holding the project id */
      param: string;
      /** deleted projects pass (restore); otherwise a deleted project is 404 */
      deleted?: boolean;
    };

export const POLICY = 'stat:policy';
/** Marks a POST that only reads (report queries): no CSRF header demanded. */
export const READ_ONLY = 'stat:read-only';

export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(POLICY, { kind: 'public' } satisfies Policy);
export const LoggedIn = (): MethodDecorator & ClassDecorator => SetMetadata(POLICY, { kind: 'user' } satisfies Policy);
export const RequirePermission = (permission: Permission): MethodDecorator & ClassDecorator =>
  SetMetadata(POLICY, { kind: 'permission', permission } satisfies Policy);
export const ProjectView = (param = 'projectId', options: { deleted?: boolean } = {}): MethodDecorator & ClassDecorator =>
  SetMetadata(POLICY, { kind: 'project', level: 'view', param, ...options } satisfies Policy);
export const ProjectWidget = (param = 'projectId'): MethodDecorator & ClassDecorator =>
  SetMetadata(POLICY, { kind: 'project', level: 'widget', param } satisfies Policy);
export const ProjectEdit = (param = 'projectId', options: { deleted?: boolean } = {}): MethodDecorator & ClassDecorator =>
  SetMetadata(POLICY, { kind: 'project', level: 'edit', param, ...options } satisfies Policy);
export const SetPolicy = (policy: Policy): MethodDecorator & ClassDecorator => SetMetadata(POLICY, policy);
export const ReadOnlyPost = (): MethodDecorator & ClassDecorator => SetMetadata(READ_ONLY, true);

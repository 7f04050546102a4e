import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsDefined, IsObject, IsBoolean, IsEmail, IsIn, IsOptional, MaxLength, ValidateNested } from 'class-validator';
import { ACCESS_LEVEL, type AccessDecision, type AccessGrant, type AccessGrants, type AccessUpdate, type UserExistsBody } from '@stat/schemas/access';
import { Given } from '../http/dto-helpers.js';
import { IsRowId } from '../http/id.pipe.js';

const ACCESS_EMAIL_INVALID = 'Введен неправильный email';

export class AccessUserDto implements AccessGrant {
  @IsEmail({}, { message: ACCESS_EMAIL_INVALID }) @MaxLength(254, { message: ACCESS_EMAIL_INVALID }) email!: string;
  @IsIn(Object.values(ACCESS_LEVEL)) access_level!: number;
  @IsOptional() @IsBoolean() can_edit_project?: boolean;
}

export class AccessListDto implements AccessGrants {
  @IsArray() @ArrayMaxSize(500) @ValidateNested({ each: true }) @Type(() => AccessUserDto) users!: AccessUserDto[];
}

/** PATCH /project/{id}/access: `{data: {users: [...]}}`. */
export class UpdateAccessDto implements AccessUpdate {
  @IsDefined() @IsObject() @ValidateNested() @Type(() => AccessListDto) data!: AccessListDto;
}

export class UserExistsDto implements UserExistsBody {
  @IsEmail({}, { message: ACCESS_EMAIL_INVALID }) @MaxLength(254, { message: ACCESS_EMAIL_INVALID }) email!: string;
}

/**
 * POST /project/{projectId}/access_request/{requestId}: spec 000 §7 sends the project id and
 * the request's id in the body as well (under either name the list gives it); they repeat the
 * path, which decides (another id is refused).
 */
export class AccessDecisionDto implements AccessDecision {
  @IsIn(['access', 'decline']) action_request!: 'access' | 'decline';
  @IsRowId() @Given() project_id?: number;
  @IsRowId() @Given() access_request_id?: number;
  @IsRowId() @Given() accessRequestId?: number;
  @IsOptional() @IsIn(Object.values(ACCESS_LEVEL)) access_level?: number;
  @IsOptional() @IsBoolean() can_edit_project?: boolean;
}

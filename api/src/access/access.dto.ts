import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsDefined, IsObject, IsBoolean, IsEmail, IsIn, IsOptional, MaxLength, ValidateNested } from 'class-validator';

export const ACCESS_EMAIL_INVALID = 'Введен неправильный email';

export class AccessUserDto {
  @IsEmail({}, { message: ACCESS_EMAIL_INVALID }) @MaxLength(254, { message: ACCESS_EMAIL_INVALID }) email!: string;
  @IsIn([0, 1]) access_level!: number;
  @IsOptional() @IsBoolean() can_edit_project?: boolean;
}

export class AccessListDto {
  @IsArray() @ArrayMaxSize(500) @ValidateNested({ each: true }) @Type(() => AccessUserDto) users!: AccessUserDto[];
}

/** PATCH /project/{id}/access: `{data: {users: [...]}}`. */
export class UpdateAccessDto {
  @IsDefined() @IsObject() @ValidateNested() @Type(() => AccessListDto) data!: AccessListDto;
}

export class UserExistsDto {
  @IsEmail({}, { message: ACCESS_EMAIL_INVALID }) @MaxLength(254, { message: ACCESS_EMAIL_INVALID }) email!: string;
}

export class AccessDecisionDto {
  @IsIn(['access', 'decline']) action_request!: 'access' | 'decline';
  @IsOptional() @IsIn([0, 1]) access_level?: number;
  @IsOptional() @IsBoolean() can_edit_project?: boolean;
}

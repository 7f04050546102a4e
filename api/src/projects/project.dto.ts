import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  Equals,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateBy,
  ValidateNested,
  type ValidationOptions,
} from 'class-validator';
import { IsRowId } from '../http/id.pipe.js';
import { parseSiteUrl, URL_INVALID, URL_TOO_LONG } from './url.js';

export const REQUIRED_ON_CREATE = 'Поле не заполнено';
export const REQUIRED = 'Обязательное поле';
export const MIN_3 = 'Минимум 3 символа';
export const TOO_LONG = 'Превышен лимит символов';
export const MUST_AGREE = 'Вы должны принять условия';

export function IsSiteUrl(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy({ name: 'isSiteUrl', validator: { validate: (value) => parseSiteUrl(value) !== null } }, { message: URL_INVALID, ...options });
}

/** "true"/"false" of a query string to a boolean; anything else is left for the validator to refuse. */
export const queryBoolean = () => Transform(({ value }) => (value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value));
/** Digits of a query string to a number. */
export const queryInt = () => Transform(({ value }) => (typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value));

export class CreateProjectDto {
  @IsString({ message: REQUIRED_ON_CREATE })
  @IsNotEmpty({ message: REQUIRED_ON_CREATE })
  @MaxLength(200, { message: URL_TOO_LONG })
  @IsSiteUrl()
  url!: string;

  @IsString({ message: REQUIRED_ON_CREATE })
  @IsNotEmpty({ message: REQUIRED_ON_CREATE })
  @MinLength(3, { message: MIN_3 })
  @MaxLength(255, { message: TOO_LONG })
  title!: string;

  @Equals(true, { message: MUST_AGREE })
  agree!: boolean;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  captcha_response?: string;
}

export class CounterSettingsDto {
  @IsOptional() @Matches(/^#[0-9a-fA-F]{6}$/, { message: 'color must be #RRGGBB' }) color?: string;
  @IsOptional() @IsIn([0, 1]) counter_type?: number;
  @IsOptional() @IsBoolean() merge_subdomains?: boolean;
  @IsOptional() @IsBoolean() merge_www?: boolean;
  @IsOptional() @IsBoolean() track_hashes?: boolean;
  @IsOptional() @IsBoolean() track_user_id?: boolean;
  @IsOptional() @IsBoolean() use_block_analytics?: boolean;
  @IsOptional()
  @Matches(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/, { message: 'block_analytics_attribute must be a data attribute name' })
  block_analytics_attribute?: string;
  @IsOptional() @IsBoolean() use_whitelist?: boolean;
  @IsOptional() @IsArray() @ArrayMaxSize(100) @IsSiteUrl({ each: true }) whitelisted_urls?: string[];
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @IsNotEmpty({ each: true, message: REQUIRED })
  @MaxLength(200, { each: true, message: URL_TOO_LONG })
  @Matches(/^\S+$/, { each: true, message: URL_INVALID })
  blacklisted_urls?: string[];
  @IsOptional() @IsString() @MaxLength(255, { message: TOO_LONG }) title?: string;
}

/** PUT /project/{id}: counter settings, or the rating form; every field optional. */
export class UpdateProjectDto {
  @IsOptional()
  @IsString({ message: REQUIRED })
  @IsNotEmpty({ message: REQUIRED })
  @MinLength(3, { message: MIN_3 })
  @MaxLength(255, { message: TOO_LONG })
  title?: string;

  @IsOptional() @IsObject() @ValidateNested() @Type(() => CounterSettingsDto) counter_settings?: CounterSettingsDto;

  @IsOptional() @IsBoolean() in_rating?: boolean;
  // Its length (3 to 500) is checked with the rest of the rating form in RatingService.saveForm,
  // so that the error carries the form's text for this field in errors.fields.
  @IsOptional() @IsString() keywords?: string;
  @IsOptional() @IsBoolean({ message: 'Необходимо выбрать один из пунктов' }) public_stats?: boolean;
  @IsOptional() @IsArray() @ArrayMaxSize(100) @IsRowId({ each: true }) categories?: number[];
  @IsOptional() @IsArray() @ArrayMaxSize(100) @IsRowId({ each: true }) regions?: number[];
  @IsOptional() @IsArray() @ArrayMaxSize(100) @IsRowId({ each: true }) types?: number[];
}

export class ProjectListQueryDto {
  @IsOptional() @queryBoolean() @IsBoolean() deleted?: boolean;
  @IsOptional() @queryBoolean() @IsBoolean() expanded?: boolean;
  @IsOptional() @queryBoolean() @IsBoolean() use_rating?: boolean;
  @IsOptional() @queryInt() @IsInt() @Min(0) @Max(1_000_000) offset?: number;
  @IsOptional() @queryInt() @IsInt() @Min(1) @Max(100) limit?: number;
  @IsOptional() @IsString() @MaxLength(100) search?: string;
}

export class UserProjectsQueryDto {
  @IsOptional() @queryInt() @IsInt() @Min(0) @Max(1_000_000) offset?: number;
  @IsOptional() @queryInt() @IsInt() @Min(1) @Max(100) limit?: number;
  @IsOptional() @IsString() @MaxLength(100) search?: string;
}

export class SameUrlQueryDto {
  @IsString() @MaxLength(200, { message: URL_TOO_LONG }) @IsSiteUrl() url!: string;
  @IsOptional() @queryInt() @IsInt() @Min(1) @Max(100) limit?: number;
  @IsOptional() @queryInt() @IsInt() @Min(0) @Max(1_000_000) offset?: number;
}

export class MetadataQueryDto {
  @IsString() @MaxLength(200, { message: URL_TOO_LONG }) @IsSiteUrl() url!: string;
}

export class CounterCodeQueryDto {
  @IsOptional() @queryBoolean() @IsBoolean() track_hashes?: boolean;
  @IsOptional() @queryBoolean() @IsBoolean() track_user_id?: boolean;
  @IsOptional() @queryBoolean() @IsBoolean() use_block_analytics?: boolean;
  @IsOptional() @queryBoolean() @IsBoolean() widget?: boolean;
}

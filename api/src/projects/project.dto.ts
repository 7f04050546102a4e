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
import { IsPageOffset } from '../http/dto-helpers.js';
import { IsRowId } from '../http/id.pipe.js';
import type { CounterCodeOptions, CounterSettings, CreateProjectBody, ProjectUpdate } from '@stat/schemas/projects';
import { parseSiteUrl, SITE_URL_MAX, SITE_URL_TEXTS } from '@stat/schemas/site';

const REQUIRED_ON_CREATE = 'Поле не заполнено';
const REQUIRED = 'Обязательное поле';
const MIN_3 = 'Минимум 3 символа';
export const TOO_LONG = 'Превышен лимит символов';
const MUST_AGREE = 'Вы должны принять условия';

function IsSiteUrl(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy({ name: 'isSiteUrl', validator: { validate: (value) => parseSiteUrl(value) !== null } }, { message: SITE_URL_TEXTS.invalid, ...options });
}

/** "true"/"false" of a query string to a boolean; anything else is left for the validator to refuse. */
export const queryBoolean = () => Transform(({ value }) => (value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value));
/** Digits of a query string to a number. */
export const queryInt = () => Transform(({ value }) => (typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value));

export class CreateProjectDto implements CreateProjectBody {
  @IsString({ message: REQUIRED_ON_CREATE })
  @IsNotEmpty({ message: REQUIRED_ON_CREATE })
  @MaxLength(SITE_URL_MAX, { message: SITE_URL_TEXTS.tooLong })
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

export class CounterSettingsDto implements Partial<CounterSettings> {
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
  @MaxLength(SITE_URL_MAX, { each: true, message: SITE_URL_TEXTS.tooLong })
  @Matches(/^\S+$/, { each: true, message: SITE_URL_TEXTS.invalid })
  blacklisted_urls?: string[];
  @IsOptional() @IsString() @MaxLength(255, { message: TOO_LONG }) title?: string;
}

/** PUT /project/{id}: counter settings, or the rating form; every field optional. */
export class UpdateProjectDto implements ProjectUpdate {
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
  @IsOptional() @queryInt() @IsPageOffset() offset?: number;
  @IsOptional() @queryInt() @IsInt() @Min(1) @Max(100) limit?: number;
  @IsOptional() @IsString() @MaxLength(100) search?: string;
}

export class UserProjectsQueryDto {
  @IsOptional() @queryInt() @IsPageOffset() offset?: number;
  @IsOptional() @queryInt() @IsInt() @Min(1) @Max(100) limit?: number;
  @IsOptional() @IsString() @MaxLength(100) search?: string;
}

export class SameUrlQueryDto {
  @IsString() @MaxLength(SITE_URL_MAX, { message: SITE_URL_TEXTS.tooLong }) @IsSiteUrl() url!: string;
  @IsOptional() @queryInt() @IsInt() @Min(1) @Max(100) limit?: number;
  @IsOptional() @queryInt() @IsPageOffset() offset?: number;
}

export class MetadataQueryDto {
  @IsString() @MaxLength(SITE_URL_MAX, { message: SITE_URL_TEXTS.tooLong }) @IsSiteUrl() url!: string;
}

export class CounterCodeQueryDto implements CounterCodeOptions {
  @IsOptional() @queryBoolean() @IsBoolean() track_hashes?: boolean;
  @IsOptional() @queryBoolean() @IsBoolean() track_user_id?: boolean;
  @IsOptional() @queryBoolean() @IsBoolean() use_block_analytics?: boolean;
  @IsOptional() @queryBoolean() @IsBoolean() widget?: boolean;
}

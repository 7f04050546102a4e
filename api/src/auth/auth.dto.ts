import { ACCOUNT_LIMITS } from '@stat/schemas/site';
import { HINT_REPORT_NAME, HINT_REPORTS_MAX, META_TIP_VIEWS, META_TIPS, type HintState, type MetaTip } from '@stat/schemas/hints';
import { ArrayMaxSize, IsArray, IsBoolean, IsEmail, IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, MaxLength, Min } from 'class-validator';

const { passwordMin, passwordMax, userNameMax } = ACCOUNT_LIMITS;
const PASSWORD_LENGTH = `Пароль должен быть от ${passwordMin} до ${passwordMax} символов`;

export const EMAIL_INVALID = 'Введен неправильный email';

export class RegisterDto {
  @IsEmail({}, { message: EMAIL_INVALID })
  @MaxLength(254, { message: EMAIL_INVALID })
  email!: string;

  @IsString()
  @Length(passwordMin, passwordMax, { message: PASSWORD_LENGTH })
  password!: string;

  @IsOptional()
  @IsString()
  @MaxLength(userNameMax)
  user_name?: string;
}

export class LoginDto {
  @IsString()
  @MaxLength(254)
  email!: string;

  @IsString()
  @MaxLength(passwordMax)
  password!: string;
}

/** `PUT /user/current`: the profile's name (empty clears it). */
export class ProfileDto {
  @IsString()
  @MaxLength(userNameMax, { message: `Имя — не более ${userNameMax} символов` })
  user_name!: string;
}

/** `POST /user/current/password`: the current password proves it is the user; the new one as at registration. */
export class ChangePasswordDto {
  @IsString()
  @MaxLength(passwordMax)
  current_password!: string;

  @IsString()
  @Length(passwordMin, passwordMax, { message: PASSWORD_LENGTH })
  new_password!: string;
}

/** `PUT /user/current/hints`: the user's whole hint state (spec 001 §2 "Hints"). */
export class HintsDto implements HintState {
  @IsBoolean()
  all!: boolean;

  @IsArray()
  @ArrayMaxSize(HINT_REPORTS_MAX)
  @Matches(HINT_REPORT_NAME, { each: true, message: 'reports: каждый элемент — имя отчёта' })
  reports!: string[];

  @IsArray()
  @ArrayMaxSize(META_TIPS.length)
  @IsIn(META_TIPS, { each: true })
  tips!: MetaTip[];

  @IsInt()
  @Min(0)
  @Max(META_TIP_VIEWS)
  views!: number;
}

import { ACCOUNT_LIMITS, PASSWORD_TEXTS, passwordProblem } from '@stat/schemas/site';
import type { LoginBody, PasswordChangeBody, ProfileBody, RegisterBody } from '@stat/schemas/accounts';
import { HINT_REPORT_NAME, HINT_REPORTS_MAX, META_TIP_VIEWS, META_TIPS, type HintState, type MetaTip } from '@stat/schemas/hints';
import { ArrayMaxSize, IsArray, IsBoolean, IsEmail, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateBy } from 'class-validator';

const { passwordMax, userNameMax } = ACCOUNT_LIMITS;

/** A new password (registration, a change): the shared rule's one text (schemas, `passwordProblem`). */
const IsNewPassword = (): PropertyDecorator =>
  ValidateBy({
    name: 'isNewPassword',
    validator: {
      validate: (value) => typeof value === 'string' && passwordProblem(value) === null,
      defaultMessage: (args) => (typeof args?.value === 'string' ? passwordProblem(args.value) : null) ?? PASSWORD_TEXTS.length,
    },
  });

const EMAIL_INVALID = 'Введен неправильный email';

export class RegisterDto implements RegisterBody {
  @IsEmail({}, { message: EMAIL_INVALID })
  @MaxLength(254, { message: EMAIL_INVALID })
  email!: string;

  @IsNewPassword()
  @IsString()
  password!: string;

  @IsOptional()
  @IsString()
  @MaxLength(userNameMax)
  user_name?: string;
}

export class LoginDto implements LoginBody {
  @IsString()
  @MaxLength(254)
  email!: string;

  @IsString()
  @MaxLength(passwordMax)
  password!: string;
}

/** `PUT /user/current`: the profile's name (empty clears it). */
export class ProfileDto implements ProfileBody {
  @IsString()
  @MaxLength(userNameMax, { message: `Имя — не более ${userNameMax} символов` })
  user_name!: string;
}

/** `POST /user/current/password`: the current password proves it is the user; the new one as at registration. */
export class ChangePasswordDto implements PasswordChangeBody {
  @IsString()
  @MaxLength(passwordMax)
  current_password!: string;

  @IsNewPassword()
  @IsString()
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

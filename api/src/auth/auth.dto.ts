import { IsEmail, IsOptional, IsString, Length, MaxLength } from 'class-validator';

export const EMAIL_INVALID = 'Введен неправильный email';

export class RegisterDto {
  @IsEmail({}, { message: EMAIL_INVALID })
  @MaxLength(254, { message: EMAIL_INVALID })
  email!: string;

  @IsString()
  @Length(8, 128, { message: 'Пароль должен быть от 8 до 128 символов' })
  password!: string;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  user_name?: string;
}

export class LoginDto {
  @IsString()
  @MaxLength(254)
  email!: string;

  @IsString()
  @MaxLength(128)
  password!: string;
}

/** `PUT /user/current`: the profile's name (empty clears it). */
export class ProfileDto {
  @IsString()
  @MaxLength(100, { message: 'Имя — не более 100 символов' })
  user_name!: string;
}

/** `POST /user/current/password`: the current password proves it is the user; the new one as at registration. */
export class ChangePasswordDto {
  @IsString()
  @MaxLength(128)
  current_password!: string;

  @IsString()
  @Length(8, 128, { message: 'Пароль должен быть от 8 до 128 символов' })
  new_password!: string;
}

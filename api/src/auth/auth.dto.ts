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

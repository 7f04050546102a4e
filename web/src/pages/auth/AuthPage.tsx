import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { useSession } from '../../app/session';
import { Button, Notice, TextField } from '../../components/ui';
import { checkEmail, checkPassword, PASSWORD_MAX, PASSWORD_MIN, TEXTS, USER_NAME_MAX } from '../../data/validation';
import { ApiError, returnPath } from '../../lib/api';
import styles from './AuthPage.module.css';
import { PageTitle } from '../../app/PageTitle';


/**
 * Our own login and registration (the api's accounts): `/stat/projects?login` and
 * `?register`, with `back` the address to return to afterwards.
 */
export default function AuthPage({ mode }: { readonly mode: 'login' | 'register' }) {
  const session = useSession();
  const navigate = useNavigate();
  const { search } = useLocation();
  const back = new URLSearchParams(search).get('back');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<{ email?: string | null; password?: string | null; name?: string | null }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const register = mode === 'register';
  const otherHref = `/stat/projects?${register ? 'login' : 'register'}${back ? `&back=${encodeURIComponent(back)}` : ''}`;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = {
      email: checkEmail(email),
      password: register ? checkPassword(password) : password ? null : TEXTS.required,
      name: register && name.trim().length > USER_NAME_MAX ? `Не более ${USER_NAME_MAX} символов` : null,
    };
    setErrors(found);
    setFailure(null);
    if (found.email || found.password || found.name) return;
    setBusy(true);
    try {
      if (register) await session.register(email.trim(), password, name.trim());
      else await session.login(email.trim(), password);
      void navigate(returnPath(back), { replace: true });
    } catch (error) {
      setBusy(false);
      if (error instanceof ApiError && error.status !== 0 && error.status < 500) {
        const fields = error.fields;
        if (fields.email?.[0] || fields.password?.[0]) {
          setErrors({ email: fields.email?.[0] ?? null, password: fields.password?.[0] ?? null });
        }
        setFailure(error.message);
      } else {
        setFailure('Произошла ошибка при запросе на сервер. Попробуйте еще раз.');
      }
    }
  };

  return (
    <div className={styles.page}>
      <PageTitle text={register ? 'Регистрация – Статистика' : 'Вход – Статистика'} />
      <div className={styles.intro}>
        <h1 className={styles.heading}>Статистика посещаемости ваших сайтов</h1>
        <p>Установите счётчик на сайт и смотрите посещаемость, источники трафика и поведение посетителей в реальном времени.</p>
        <ul className={styles.points}>
          <li>Отчёты о визитах, посетителях и просмотрах</li>
          <li>Общий доступ к статистике для вашей команды</li>
          <li>Участие в открытом рейтинге сайтов</li>
        </ul>
        <Link to="/stat/projects/7596044/new/report/summary">Посмотреть демо-отчёт</Link>
      </div>
      <form className={styles.card} onSubmit={(e) => void submit(e)} noValidate data-testid={register ? 'register-form' : 'login-form'}>
        <h2 className={styles.title}>{register ? 'Регистрация' : 'Вход'}</h2>
        {failure ? <Notice tone="danger">{failure}</Notice> : null}
        <TextField
          label="E-mail"
          type="email"
          name="email"
          autoComplete={register ? 'email' : 'username'}
          value={email}
          maxLength={254}
          onChange={(e) => setEmail(e.target.value)}
          error={errors.email}
          autoFocus
        />
        <TextField
          label="Пароль"
          type="password"
          name="password"
          autoComplete={register ? 'new-password' : 'current-password'}
          value={password}
          maxLength={PASSWORD_MAX}
          onChange={(e) => setPassword(e.target.value)}
          error={errors.password}
          hint={register ? `От ${PASSWORD_MIN} до ${PASSWORD_MAX} символов` : undefined}
        />
        {register ? (
          <TextField label="Имя (необязательно)" name="name" autoComplete="name" value={name} maxLength={USER_NAME_MAX} onChange={(e) => setName(e.target.value)} error={errors.name} />
        ) : null}
        <Button type="submit" variant="primary" busy={busy} className={styles.submit}>
          {register ? 'Зарегистрироваться' : 'Войти'}
        </Button>
        <p className={styles.switch}>
          {register ? 'Уже есть аккаунт? ' : 'Нет аккаунта? '}
          <Link to={otherHref} replace>
            {register ? 'Войти' : 'Зарегистрироваться'}
          </Link>
        </p>
      </form>
    </div>
  );
}

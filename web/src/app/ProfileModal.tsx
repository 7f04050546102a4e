import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import type { CurrentUser } from '@stat/schemas/accounts';
import { Modal } from '../components/Modal';
import { Button, TextField } from '../components/ui';
import { calls } from '../data/calls';
import { SAVE_FAILED } from '../data/messages';
import { checkPassword, PASSWORD_MAX, PASSWORD_MIN, TEXTS, USER_NAME_MAX } from '../data/validation';
import { ApiError, loginAddress } from '../lib/api';
import { useSession } from './session';
import { useSnackbar } from './Snackbar';
import styles from './ProfileModal.module.css';

/** Role names of spec 000 §6, by role_id. */
const ROLE_NAMES: Readonly<Record<number, string>> = {
  1: 'Администратор',
  2: 'Поддержка',
  3: 'Аналитик',
  4: 'Менеджер',
  5: 'Владелец счётчика',
  6: 'Просмотр счётчиков',
  7: 'Пользователь',
};

/** The failure text of a profile call: the api's own for a 4xx, else the generic one. */
function failureOf(error: unknown): string {
  return error instanceof ApiError && error.status >= 400 && error.status < 500 ? error.message : SAVE_FAILED;
}

/**
 * «Настройки профиля»: the account, its name, a new password (proven by the current one; the
 * other devices are logged out) and «Выйти на всех устройствах».
 */
export function ProfileModal({ user, onClose }: { readonly user: CurrentUser; readonly onClose: () => void }) {
  return (
    <Modal title="Настройки профиля" onClose={onClose} width={520} data-testid="profile-modal" footer={<Button onClick={onClose}>Закрыть</Button>}>
      <dl className={styles.facts}>
        <dt>E-mail</dt>
        <dd>{user.email}</dd>
        <dt>Роль</dt>
        <dd>{ROLE_NAMES[user.role_id] ?? user.role_id}</dd>
      </dl>
      <NameForm user={user} />
      {user.auth_type === 'password' ? <PasswordForm /> : null}
      <LogoutEverywhere />
    </Modal>
  );
}

function NameForm({ user }: { readonly user: CurrentUser }) {
  const session = useSession();
  const snackbar = useSnackbar();
  const [name, setName] = useState(user.user_name);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const changed = name.trim() !== user.user_name;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      session.updated(await calls.updateProfile(name.trim()));
      snackbar('Имя сохранено');
    } catch (failure) {
      setError(failureOf(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className={styles.section} onSubmit={(e) => void submit(e)} noValidate data-testid="profile-name">
      <h3 className={styles.heading}>Имя</h3>
      <div className={styles.row}>
        <TextField aria-label="Имя" name="user_name" value={name} maxLength={USER_NAME_MAX} onChange={(e) => setName(e.target.value)} error={error} className={styles.grow} />
        <Button type="submit" busy={busy} disabled={!changed}>
          Сохранить
        </Button>
      </div>
    </form>
  );
}

function PasswordForm() {
  const session = useSession();
  const snackbar = useSnackbar();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [errors, setErrors] = useState<{ current?: string | null; next?: string | null }>({});
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = { current: current ? null : TEXTS.required, next: checkPassword(next) };
    setErrors(found);
    if (found.current || found.next) return;
    setBusy(true);
    try {
      session.updated(await calls.changePassword(current, next));
      setCurrent('');
      setNext('');
      snackbar('Пароль изменен, вход на других устройствах завершен');
    } catch (failure) {
      const text = failureOf(failure);
      const fields = failure instanceof ApiError ? failure.fields : {};
      setErrors(fields.new_password?.[0] ? { next: fields.new_password[0] } : { current: text });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className={styles.section} onSubmit={(e) => void submit(e)} noValidate data-testid="profile-password">
      <h3 className={styles.heading}>Пароль</h3>
      <TextField label="Текущий пароль" type="password" name="current_password" autoComplete="current-password" value={current} maxLength={PASSWORD_MAX} onChange={(e) => setCurrent(e.target.value)} error={errors.current} />
      <TextField
        label="Новый пароль"
        type="password"
        name="new_password"
        autoComplete="new-password"
        value={next}
        maxLength={PASSWORD_MAX}
        onChange={(e) => setNext(e.target.value)}
        error={errors.next}
        hint={`От ${PASSWORD_MIN} до ${PASSWORD_MAX} символов. После смены вход на других устройствах завершится.`}
      />
      <div>
        <Button type="submit" busy={busy}>
          Сменить пароль
        </Button>
      </div>
    </form>
  );
}

function LogoutEverywhere() {
  const session = useSession();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      await calls.logoutAll();
      session.forget();
      void navigate(loginAddress('/stat/projects'));
    } catch (failure) {
      setError(failureOf(failure));
      setBusy(false);
    }
  };
  return (
    <div className={styles.section}>
      <h3 className={styles.heading}>Сеансы</h3>
      <div className={styles.row}>
        <span className={styles.note}>Завершить вход во всех браузерах и на всех устройствах, включая этот.</span>
        <Button variant="danger" busy={busy} onClick={() => void run()} data-testid="logout-all">
          Выйти на всех устройствах
        </Button>
      </div>
      {error ? (
        <div className={styles.error} role="alert">
          {error}
        </div>
      ) : null}
    </div>
  );
}

import { useState, type FormEvent, type ReactNode } from 'react';
import { ACCESS_LEVEL, type AccessRequest, type AccessUser } from '@stat/schemas/access';
import { SUPPORT_EMAIL } from '../../app/links';
import { useProject } from '../../app/project';
import { useSession } from '../../app/session';
import { useSnackbar } from '../../app/Snackbar';
import { ConfirmDialog } from '../../components/Modal';
import { Badge, Button, Notice, Panel, Spinner, TextInput } from '../../components/ui';
import { calls } from '../../data/calls';
import { ACCESS_FAILED, RATE_LIMIT_MESSAGE, RATE_LIMIT_TEXT, SERVER_OOPS, SNACKS } from '../../data/messages';
import { checkEmail, TEXTS } from '../../data/validation';
import { ApiError } from '../../lib/api';
import { projectTitle } from '../../lib/format';
import { useRequest } from '../../lib/hooks';
import { ErrorPage } from '../ErrorPage';
import { isChangeable, isListed, levelLabel, withAdded, without, withLevel, type AccessEntry } from './accessList';
import styles from './Access.module.css';
import { ProjectPageTitle } from '../../app/ProjectPageTitle';

/** What a failed access call shows (spec 000 §8). */
export function accessFailure(error: unknown): ReactNode {
  if (error instanceof ApiError) {
    if (error.message === RATE_LIMIT_MESSAGE || error.status === 429) {
      return (
        <>
          {RATE_LIMIT_TEXT} <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>
        </>
      );
    }
    if (error.status === 400 && error.message !== SERVER_OOPS) return error.message;
  }
  return ACCESS_FAILED;
}

/**
 * Access management (`settings/access`, spec 000 §2.8): add a user by e-mail with a level, the
 * pending access requests (accept as edit, accept as view, decline), the users with their levels;
 * one's own access cannot be changed or removed; removal asks first.
 */
export default function AccessSettings() {
  const { project } = useProject();
  const { user } = useSession();
  const snackbar = useSnackbar();
  const list = useRequest(`access:${project.id}`, (signal) => calls.accessUsers(project.id, { signal }));
  const requests = useRequest(`requests:${project.id}`, (signal) => calls.accessRequests(project.id, { signal }));
  const [users, setUsers] = useState<readonly AccessUser[] | null>(null);
  const shown = users ?? list.data?.users ?? null;
  const [email, setEmail] = useState('');
  const [level, setLevel] = useState<number>(ACCESS_LEVEL.view);
  const [emailError, setEmailError] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [failure, setFailure] = useState<ReactNode>(null);
  const [busyEmail, setBusyEmail] = useState<string | null>(null);
  const [removing, setRemoving] = useState<{ email: string; busy: boolean } | null>(null);
  const [decided, setDecided] = useState<number | null>(null);

  const save = async (entries: AccessEntry[]) => {
    const answer = await calls.saveAccess(project.id, entries);
    setUsers(answer.users);
    return answer;
  };

  const add = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const current = shown ?? [];
    const format = checkEmail(email);
    if (format) return setEmailError(format);
    if (isListed(current, email)) return setEmailError(TEXTS.alreadyAdded);
    setEmailError(null);
    setAdding(true);
    try {
      const { exists } = await calls.userExists(email.trim());
      if (!exists) {
        setEmailError(TEXTS.emailNotFound);
        return;
      }
      await save(withAdded(current, email, level));
      setEmail('');
      snackbar(SNACKS.granted);
    } catch (error) {
      if (error instanceof ApiError && (error.message === TEXTS.emailNotFound || error.message === TEXTS.alreadyAdded || error.message === TEXTS.emailInvalid)) {
        setEmailError(error.message);
      } else {
        setFailure(accessFailure(error));
      }
    } finally {
      setAdding(false);
    }
  };

  const change = async (target: AccessUser, accessLevel: number) => {
    setFailure(null);
    setBusyEmail(target.email);
    try {
      await save(withLevel(shown ?? [], target.email, accessLevel));
      snackbar(SNACKS.changed);
    } catch (error) {
      setFailure(accessFailure(error));
    } finally {
      setBusyEmail(null);
    }
  };

  const remove = async () => {
    if (!removing) return;
    setRemoving({ ...removing, busy: true });
    setFailure(null);
    try {
      await save(without(shown ?? [], removing.email));
      snackbar(SNACKS.changed);
      setRemoving(null);
    } catch (error) {
      setFailure(accessFailure(error));
      setRemoving(null);
    }
  };

  const decide = async (request: AccessRequest, action: 'edit' | 'view' | 'reject') => {
    setFailure(null);
    setDecided(request.access_request_id);
    try {
      await calls.decideAccessRequest(
        project.id,
        request.access_request_id,
        action === 'reject' ? { action_request: 'decline' } : { action_request: 'access', access_level: action === 'edit' ? 0 : 1, can_edit_project: action === 'edit' },
      );
      snackbar(action === 'reject' ? SNACKS.declined : SNACKS.granted);
      requests.reload();
      setUsers(null);
      list.reload();
    } catch (error) {
      setFailure(accessFailure(error));
    } finally {
      setDecided(null);
    }
  };

  if (list.error && !shown) return <ErrorPage status={list.error instanceof ApiError ? list.error.status : 500} compact />;
  const pending = requests.data?.data ?? [];

  return (
    <div className={styles.page} data-testid="access-settings">
      <ProjectPageTitle title="Доступ" />
      {failure ? (
        <Notice tone="danger" onClose={() => setFailure(null)} data-testid="access-failure">
          {failure}
        </Notice>
      ) : null}

      <Panel title="Добавить пользователя" description="Пользователь должен быть зарегистрирован. В день можно добавить не более 20 пользователей.">
        <form className={styles.addForm} onSubmit={(e) => void add(e)} noValidate data-testid="access-add">
          <div className={styles.emailField}>
            <TextInput
              type="email"
              placeholder="E-mail пользователя"
              aria-label="E-mail пользователя"
              value={email}
              maxLength={254}
              invalid={Boolean(emailError)}
              onChange={(e) => {
                setEmail(e.target.value);
                setEmailError(null);
              }}
              data-testid="access-email"
            />
            {emailError ? (
              <div className={styles.error} role="alert" data-testid="field-error">
                {emailError}
              </div>
            ) : null}
          </div>
          <select className={styles.select} value={level} onChange={(e) => setLevel(Number(e.target.value))} aria-label="Уровень доступа" data-testid="access-level">
            <option value={ACCESS_LEVEL.view}>Только просмотр</option>
            <option value={ACCESS_LEVEL.edit}>Редактирование</option>
          </select>
          <Button type="submit" variant="primary" busy={adding} data-testid="access-submit">
            Добавить
          </Button>
        </form>
      </Panel>

      <Panel title="Запросы на доступ" data-testid="access-requests">
        {requests.loading && !requests.data ? (
          <div className={styles.loadingRow}>
            <Spinner size={18} />
          </div>
        ) : pending.length === 0 ? (
          <p className={styles.muted}>Новых запросов нет</p>
        ) : (
          <ul className={styles.rows}>
            {pending.map((r) => (
              <li key={r.access_request_id} className={styles.row} data-testid="access-request">
                <div className={styles.who}>
                  <span className={styles.email}>{r.email}</span>
                  <span className={styles.muted}>запрос от {new Date(r.created).toLocaleDateString('ru-RU', { timeZone: 'Europe/Moscow' })}</span>
                </div>
                <div className={styles.rowActions}>
                  <Button size="s" variant="primary" disabled={decided !== null} onClick={() => void decide(r, 'edit')}>
                    Дать редактирование
                  </Button>
                  <Button size="s" disabled={decided !== null} onClick={() => void decide(r, 'view')}>
                    Дать просмотр
                  </Button>
                  <Button size="s" variant="ghost" disabled={decided !== null} onClick={() => void decide(r, 'reject')}>
                    Отклонить
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </Panel>

      <Panel title="Пользователи" data-testid="access-users">
        {!shown ? (
          <ul className={styles.rows} aria-busy="true">
            {[0, 1].map((i) => (
              <li key={i} className={styles.row}>
                <span className="skeleton" style={{ width: 220, height: 16 }} />
                <span className="skeleton" style={{ width: 160, height: 28 }} />
              </li>
            ))}
          </ul>
        ) : (
          <ul className={styles.rows}>
            {shown.map((u) => {
              const changeable = isChangeable(u, user?.email);
              const self = u.is_current_user || (user && u.email.toLowerCase() === user.email.toLowerCase());
              return (
                <li key={u.email} className={styles.row} data-testid="access-user" data-email={u.email}>
                  <div className={styles.who}>
                    <span className={styles.email}>{u.email}</span>
                    {self ? <Badge tone="accent">Это вы</Badge> : null}
                    {u.is_owner ? <Badge>Владелец</Badge> : null}
                  </div>
                  <div className={styles.rowActions}>
                    {changeable ? (
                      <>
                        <select
                          className={styles.select}
                          value={u.access_level === 0 ? 0 : 1}
                          disabled={busyEmail !== null}
                          onChange={(e) => void change(u, Number(e.target.value))}
                          aria-label={`Доступ ${u.email}`}
                          data-testid="access-user-level"
                        >
                          <option value={ACCESS_LEVEL.view}>Только просмотр</option>
                          <option value={ACCESS_LEVEL.edit}>Редактирование</option>
                        </select>
                        <Button size="s" variant="ghost" onClick={() => setRemoving({ email: u.email, busy: false })} disabled={busyEmail !== null} data-testid="access-remove">
                          Удалить
                        </Button>
                      </>
                    ) : (
                      <span className={styles.level} data-testid="access-user-level-label">
                        {levelLabel(u.access_level)}
                      </span>
                    )}
                    {busyEmail === u.email ? <Spinner size={16} /> : null}
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </Panel>

      {removing ? (
        <ConfirmDialog
          title="Удалить доступ?"
          confirmLabel="Удалить"
          danger
          busy={removing.busy}
          onConfirm={() => void remove()}
          onCancel={() => setRemoving(null)}
        >
          <p>
            Пользователь {removing.email} больше не увидит статистику сайта «{projectTitle(project.title)}».
          </p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { CloseIcon } from '../components/ui';
import { DELAYS } from '../lib/hooks';
import styles from './Notifications.module.css';

/** A notification: a title, a text, and whether it closes by itself. */
export interface NotificationInput {
  /** Same id replaces (or, while pending, cancels and re-plans) the earlier one. */
  readonly id: string;
  readonly title?: string;
  readonly text: ReactNode;
  /** Appears after this long (spec: notifications after 500 ms; the counter page's after 4000 ms). */
  readonly delayMs?: number;
  /** Closes after this long; by default it stays until closed. */
  readonly autoCloseMs?: number;
  /** Called when it appears (a page that shows a notice once remembers it here). */
  readonly onShow?: () => void;
}

interface Api {
  notify(input: NotificationInput): void;
  dismiss(id: string): void;
}

const NotificationContext = createContext<Api>({ notify: () => undefined, dismiss: () => undefined });

/** Shows notifications in the top right corner (spec 000 §2.2 "notifications"). */
export function useNotifications(): Api {
  return useContext(NotificationContext);
}

/** Holds the notifications; wrap the app once. */
export function NotificationProvider({ children }: { readonly children: ReactNode }) {
  const [shown, setShown] = useState<NotificationInput[]>([]);
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>[]>());

  const clearTimers = (id: string) => {
    for (const t of timers.current.get(id) ?? []) clearTimeout(t);
    timers.current.delete(id);
  };
  const dismiss = useCallback((id: string) => {
    clearTimers(id);
    setShown((list) => list.filter((n) => n.id !== id));
  }, []);
  const notify = useCallback(
    (input: NotificationInput) => {
      clearTimers(input.id);
      const list: ReturnType<typeof setTimeout>[] = [];
      list.push(
        setTimeout(() => {
          setShown((current) => [...current.filter((n) => n.id !== input.id), input]);
          input.onShow?.();
          if (input.autoCloseMs) list.push(setTimeout(() => dismiss(input.id), input.autoCloseMs));
        }, input.delayMs ?? DELAYS.notification),
      );
      timers.current.set(input.id, list);
    },
    [dismiss],
  );
  useEffect(() => {
    const all = timers.current;
    return () => {
      for (const list of all.values()) for (const t of list) clearTimeout(t);
    };
  }, []);

  return (
    <NotificationContext.Provider value={{ notify, dismiss }}>
      {children}
      <div className={styles.region} aria-live="polite">
        {shown.map((n) => (
          <div key={n.id} className={styles.note} role="status" data-testid={`notification-${n.id}`}>
            <div className={styles.body}>
              {n.title ? <div className={styles.title}>{n.title}</div> : null}
              <div className={styles.text}>{n.text}</div>
            </div>
            <button type="button" className={styles.close} onClick={() => dismiss(n.id)} aria-label="Закрыть уведомление">
              <CloseIcon />
            </button>
          </div>
        ))}
      </div>
    </NotificationContext.Provider>
  );
}

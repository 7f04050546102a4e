import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import styles from './Snackbar.module.css';

/** Snackbars clear themselves after this long (spec 000 §9: 3 s). */
const SNACKBAR_MS = 3000;

type Show = (message: string) => void;

const SnackbarContext = createContext<Show>(() => undefined);

/** Shows a short message at the bottom of the screen (spec 000 §2.2 "snackbars"). */
export function useSnackbar(): Show {
  return useContext(SnackbarContext);
}

/** Holds the current snackbar; wrap the app once. */
export function SnackbarProvider({ children }: { readonly children: ReactNode }) {
  const [message, setMessage] = useState<{ text: string; id: number } | null>(null);
  const show = useCallback<Show>((text) => setMessage({ text, id: Date.now() }), []);
  useEffect(() => {
    if (!message) return undefined;
    const timer = setTimeout(() => setMessage(null), SNACKBAR_MS);
    return () => clearTimeout(timer);
  }, [message]);
  return (
    <SnackbarContext.Provider value={show}>
      {children}
      <div className={styles.region} role="status" aria-live="polite">
        {message ? (
          <div key={message.id} className={styles.snackbar}>
            {message.text}
          </div>
        ) : null}
      </div>
    </SnackbarContext.Provider>
  );
}

/**
 * Who is logged in: read once at start (`GET /user/current`; anonymous is normal, so a lost
 * session does not send anyone to the login page from here), set by login and registration,
 * reset to the initial state by logout (spec 000 §4 "Session"). A change of user drops the report
 * answers asked for at start, which were the previous user's.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { CurrentUser } from '@stat/schemas/accounts';
import { setAuthLostHandler, statusOf } from '../lib/api';
import { calls } from '../data/calls';
import { dropPreloaded } from '../reports/framework/preloaded';
import { takeEarlyUser } from './earlyUser';

/** The session as the app sees it. */
export type SessionState =
  | { readonly status: 'loading'; readonly user: null }
  | { readonly status: 'anonymous'; readonly user: null }
  | { readonly status: 'user'; readonly user: CurrentUser };

/** The session and what changes it. */
export interface Session {
  readonly state: SessionState;
  /** The logged-in user, or null. */
  readonly user: CurrentUser | null;
  login(email: string, password: string): Promise<CurrentUser>;
  register(email: string, password: string, userName: string): Promise<CurrentUser>;
  /** Ends the session on the server and forgets the user. */
  logout(): Promise<void>;
  /** The session was lost (refresh answered 401): forget the user. */
  forget(): void;
  /** The api answered the user anew (a profile change). */
  updated(user: CurrentUser): void;
}

const SessionContext = createContext<Session | null>(null);

/** The session; wrap the app in {@link SessionProvider}. */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

/**
 * The logged-in user, or null; also null outside {@link SessionProvider} (a view rendered on its
 * own), where nobody is logged in.
 */
export function useUser(): CurrentUser | null {
  return useContext(SessionContext)?.user ?? null;
}

/** Loads the current user and holds the session. */
export function SessionProvider({
  children,
  initial,
  onLost,
}: {
  readonly children: ReactNode;
  /** A known state instead of asking the api (tests). */
  readonly initial?: SessionState;
  /** Where to go when the session is lost (the login page with the return address). */
  readonly onLost?: () => void;
}) {
  const [state, setState] = useState<SessionState>(initial ?? { status: 'loading', user: null });

  useEffect(() => {
    if (!onLost) return;
    setAuthLostHandler(() => {
      dropPreloaded();
      setState({ status: 'anonymous', user: null });
      onLost();
    });
  }, [onLost]);

  useEffect(() => {
    if (initial) return undefined;
    let live = true;
    // Asked for before the first render (app/preload.ts) when the app started on this page.
    (takeEarlyUser() ?? calls.currentUser({ loginOnAuthLoss: false })).then(
      // Nobody logged in answers an empty 204: anonymous, as a 401 is.
      (user) => live && setState(user ? { status: 'user', user } : { status: 'anonymous', user: null }),
      (error: unknown) => {
        // 401 is "not logged in"; any other failure too leaves the app usable for the demo.
        if (live) setState({ status: 'anonymous', user: null });
        if (statusOf(error) !== 401) console.warn('current user:', error);
      },
    );
    return () => {
      live = false;
    };
  }, [initial]);

  const login = useCallback(async (email: string, password: string) => {
    const user = await calls.login(email, password);
    dropPreloaded();
    setState({ status: 'user', user });
    return user;
  }, []);
  const register = useCallback(async (email: string, password: string, userName: string) => {
    const user = await calls.register(email, password, userName);
    dropPreloaded();
    setState({ status: 'user', user });
    return user;
  }, []);
  const logout = useCallback(async () => {
    try {
      await calls.logout();
    } finally {
      dropPreloaded();
      setState({ status: 'anonymous', user: null });
    }
  }, []);
  const forget = useCallback(() => {
    dropPreloaded();
    setState({ status: 'anonymous', user: null });
  }, []);
  const updated = useCallback((user: CurrentUser) => setState({ status: 'user', user }), []);

  const value = useMemo<Session>(
    () => ({ state, user: state.user, login, register, logout, forget, updated }),
    [state, login, register, logout, forget, updated],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

/** The session, or null outside {@link SessionProvider} (a report rendered alone, in tests). */
export function useOptionalSession(): Session | null {
  return useContext(SessionContext);
}

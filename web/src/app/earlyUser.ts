/**
 * The current user, asked for as the app starts (`preload.ts`), once: the session provider takes
 * the answer instead of asking again. Apart from the preload so that the session does not import
 * the report code the preload starts.
 */
import type { CurrentUser } from '@stat/schemas/accounts';
import { calls } from '../data/calls';

let earlyUser: Promise<CurrentUser | undefined> | null = null;

/** Asks for the current user now; a failure is the session provider's to read. */
export function askEarlyUser(): void {
  earlyUser = calls.currentUser({ loginOnAuthLoss: false });
  earlyUser.catch(() => undefined);
}

/** The current user asked for at start, once: the session provider takes it. */
export function takeEarlyUser(): Promise<CurrentUser | undefined> | null {
  const taken = earlyUser;
  earlyUser = null;
  return taken;
}

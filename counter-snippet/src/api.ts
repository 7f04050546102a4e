import { hit, setUserId } from './hit.js';
import type { Params } from './send.js';

/** A command: an array or the `arguments` of a call, its first item the command's name. */
type Command = ArrayLike<unknown>;

declare global {
  interface Window {
    /** Runs a command: stat('event', name, params?, eventClass?) or stat('uid', id). */
    stat?: (...command: unknown[]) => void;
    /** Commands pushed before the counter loaded; once it runs, push runs them at once. */
    _statq?: Command[] | { push(command: Command): unknown };
  }
}

/** Keeps the string and finite number values of the page's parameters; drops the rest. */
function params(input: unknown): Params | undefined {
  if (!input || typeof input != 'object') return;
  const out: Params = {};
  for (const key in input) {
    const value = (input as Record<string, unknown>)[key];
    if (typeof value == 'string' || (typeof value == 'number' && isFinite(value))) out[key] = value;
  }
  return out;
}

/**
 * The public API on window: `stat(...)` and the queue `_statq`. Queued user ids are set first,
 * so that the first page view (`first`) carries them; queued events follow it.
 */
export function startApi(userIdAllowed: boolean, first: () => void): void {
  const run = (command: Command): void => {
    try {
      if (command[0] == 'event') {
        hit('event', { ec: (command[3] as string) || 'cv', en: command[1] as string, ep: params(command[2]) });
      } else if (command[0] == 'uid' && userIdAllowed) {
        setUserId(command[1] == null ? '' : String(command[1]));
      }
    } catch (e) {
      // A malformed command is the page's mistake; it must not become the page's error.
    }
  };
  // Once a counter has run, _statq is its { push }: a second copy of the script finds nothing queued.
  const queued = (window._statq as Command[] | undefined) || [];
  const each = (uid: boolean): void => {
    for (let i = 0; i < queued.length; i++) {
      const command = queued[i] as Command;
      if ((command[0] == 'uid') == uid) run(command);
    }
  };
  window.stat = function () {
    // eslint-disable-next-line prefer-rest-params
    run(arguments);
  };
  window._statq = { push: run };
  each(true);
  first();
  each(false);
}

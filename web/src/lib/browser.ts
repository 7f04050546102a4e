/** Small wrappers of browser features that can be missing or refuse (storage, clipboard). */

/** localStorage, or null where it is unavailable (private modes, tests without a DOM). */
export function storage(): Storage | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null;
  } catch {
    return null;
  }
}

/** Reads a stored string; null when missing or refused. */
export function readStored(key: string): string | null {
  try {
    return storage()?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

/** Stores a string (null removes it); failures are ignored — the state just is not remembered. */
export function writeStored(key: string, value: string | null): void {
  try {
    const s = storage();
    if (value === null) s?.removeItem(key);
    else s?.setItem(key, value);
  } catch {
    // Full or refused storage: nothing to do.
  }
}

/**
 * Copies text to the clipboard: the async clipboard where the page may use it (a secure context),
 * else a hidden textarea and `execCommand('copy')` (a site served over plain http on a LAN).
 * Resolves true when copied.
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Denied: try the old way below.
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
  }
}

/**
 * Calls `run` once the page has a quiet moment (at the latest after `timeoutMs`), so that work a
 * page can do later (a notice's check, which reads storage and measures an element) stays off
 * its first render; the returned function cancels it.
 */
export function whenIdle(run: () => void, timeoutMs = 3000): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(run, { timeout: timeoutMs });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(run, 1);
  return () => window.clearTimeout(id);
}

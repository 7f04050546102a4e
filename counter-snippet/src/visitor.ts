/**
 * The first-party visitor id, kept in localStorage. Where storage is refused (privacy modes,
 * sandboxed frames) each page load is a new visitor rather than an error.
 */
export function visitorId(): string {
  const key = '_stat_v';
  const fresh = (): string => Math.random().toString(36).slice(2) + Date.now().toString(36);
  try {
    let id = localStorage.getItem(key);
    if (!id) localStorage.setItem(key, (id = fresh()));
    return id;
  } catch (e) {
    return fresh();
  }
}

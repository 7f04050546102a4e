import { moscowDate } from '@stat/schemas';
/**
 * A new account and a project of theirs, made through the api as a site owner makes them.
 * Reports are read with the returned session cookie: only the demo project is open to anyone.
 */
export async function createProject(apiUrl: string): Promise<{ projectId: number; cookie: string }> {
  const headers = { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };
  const email = `e2e-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e9).toString(36)}@example.com`;
  const registered = await fetch(`${apiUrl}/top100/api/v1.0/auth/register`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email, password: 'e2e test password' }),
  });
  if (registered.status !== 200) throw new Error(`register answered ${registered.status}: ${await registered.text()}`);
  const cookie = registered.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const created = await fetch(`${apiUrl}/top100/api/v1.0/project`, {
    method: 'POST',
    headers: { ...headers, cookie },
    body: JSON.stringify({ url: 'https://e2e-site.example', title: 'E2E site', agree: true }),
  });
  if (created.status !== 200) throw new Error(`project create answered ${created.status}: ${await created.text()}`);
  const json = (await created.json()) as { result: { project_id: number } };
  return { projectId: json.result.project_id, cookie };
}

/** A report table call, as the web app makes it; for tests that read numbers back. */
export async function summaryTotals(
  apiUrl: string,
  projectId: number,
  body: { date_start: string; date_end: string; group: string; metrics: string[] },
  cookie = '',
): Promise<number[]> {
  const response = await fetch(`${apiUrl}/top100/api/report/v1.0/report/${projectId}/summary/table`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
  if (response.status !== 200) throw new Error(`table answered ${response.status}: ${await response.text()}`);
  const json = (await response.json()) as { result: { totals: number[] } };
  return json.result.totals;
}

/** Polls until `check` returns true or the deadline passes; returns the last value seen. */
export async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  let value = await read();
  while (!check(value) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    value = await read();
  }
  return value;
}

/**
 * The report period of a test that began at `startedAt`: its Moscow day through today, `today`
 * resolved by the api at each request, so the test's hits are all in it even when the test runs
 * across Moscow midnight (a period never reaches into the future).
 */
export function periodSince(startedAt: number): { date_start: string; date_end: string } {
  return { date_start: moscowDate(startedAt), date_end: 'today' };
}

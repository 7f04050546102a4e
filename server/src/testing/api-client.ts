/** A report table call, as the web app makes it; for tests that read numbers back. */
export async function summaryTotals(
  apiUrl: string,
  projectId: number,
  body: { date_start: string; date_end: string; group: string; metrics: string[] },
): Promise<number[]> {
  const response = await fetch(`${apiUrl}/top100/api/report/v1.0/report/${projectId}/summary/table`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
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

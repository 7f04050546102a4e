/**
 * The samples of a Prometheus exposition text, keyed as written: `name` or `name{label="value",…}`
 * (prom-client writes labels in the order they were declared). For tests and tools that read
 * /metrics; comment lines are skipped.
 */
export function readSamples(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    samples.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return samples;
}

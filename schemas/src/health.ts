/**
 * What `/health` of every process answers (the collector's port and the api's): `ok`, or
 * `degraded` with the reasons an operator can act on. Always HTTP 200 while the process runs:
 * a degraded process still holds acknowledged hits, and restarting it would not help them.
 */
export interface HealthReport {
  status: 'ok' | 'degraded';
  /** why it is degraded, one line each; empty when ok */
  reasons: string[];
  /** hits acknowledged in this process and not stored yet (collector buffer, in-process bus, the batch being written) */
  unstored: number;
  /** age in milliseconds of the oldest of them, or null when none waits */
  oldest_unstored_ms: number | null;
}

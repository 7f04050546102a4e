/**
 * What `/health` of every process answers (the collector's port and the api's): `ok`, or
 * `degraded` with the reasons an operator can act on. Always HTTP 200 while the process runs:
 * a degraded process still holds acknowledged hits, and restarting it would not help them.
 */
export interface HealthReport {
  status: 'ok' | 'degraded';
  /** why it is degraded, one line each; empty when ok */
  reasons: string[];
  /** hits taken by this process and not stored yet (collector buffer, hit log, the batch being written) */
  unstored: number;
  /** age in milliseconds of the oldest of them, or null when none waits */
  oldest_unstored_ms: number | null;
}

/** A queue of acknowledged hits in this process: the collector's buffer, or the durable hit log (the in-process bus of embedded mode, the collector's log for Kafka in cluster mode). */
export interface HeldHits {
  readonly size: number;
  readonly capacity: number;
  /** server time of the oldest hit held, or null */
  readonly oldestAt: number | null;
}

/** What the aggregator says of its writes (see createAggregator's health()). */
export interface WriterHealth {
  /** the last outage's message while a batch is being retried, else null */
  failing: string | null;
  failingSince: number | null;
  /** server time of the oldest hit of the batch in hand while it is not stored */
  oldestUnstoredAt: number | null;
}

export interface HealthSources {
  buffer?: (HeldHits & { readonly error: unknown }) | null;
  bus?: HeldHits | null;
  writer?: (() => WriterHealth) | null;
}

/** A backlog over this share of its capacity is growing towards 503s. */
const BACKLOG_SHARE = 0.5;
/** An acknowledged hit older than this and not stored means storage is behind. */
export const STALE_MS = 60_000;

/** The process's health from the parts it runs: degraded while writes fail or the backlog grows. */
export function healthOf(sources: HealthSources, now: number = Date.now()): HealthReport {
  const reasons: string[] = [];
  const writer = sources.writer?.() ?? null;
  if (writer?.failing) {
    const since = writer.failingSince === null ? '' : ` for ${Math.round((now - writer.failingSince) / 1000)} s`;
    reasons.push(`writes to storage failing${since}: ${writer.failing}`);
  }
  const { buffer, bus } = sources;
  if (buffer?.error) reasons.push(`the bus refuses hits: ${String(buffer.error)}`);
  for (const [name, held] of [
    ['collector buffer', buffer],
    ['hit log', bus],
  ] as const) {
    if (held && held.size >= held.capacity * BACKLOG_SHARE) reasons.push(`${name} holds ${held.size} of ${held.capacity} hits`);
  }
  const oldest = [buffer?.oldestAt, bus?.oldestAt, writer?.oldestUnstoredAt].reduce<number | null>(
    (min, at) => (at === null || at === undefined ? min : min === null ? at : Math.min(min, at)),
    null,
  );
  const age = oldest === null ? null : Math.max(0, now - oldest);
  if (age !== null && age > STALE_MS) reasons.push(`the oldest unstored hit is ${Math.round(age / 1000)} s old`);
  return {
    status: reasons.length > 0 ? 'degraded' : 'ok',
    reasons,
    unstored: (buffer?.size ?? 0) + (bus?.size ?? 0),
    oldest_unstored_ms: age,
  };
}

/** What `/ready` of every process answers: HTTP 200 when ready, 503 with the reasons when not. */
export interface ReadinessReport {
  ready: boolean;
  /** why the process cannot do its job now, one line each; empty when ready */
  reasons: string[];
}

/** A server the process needs, and whether it answered a probe just now. */
export interface DependencyCheck {
  name: 'ClickHouse' | 'Postgres' | 'Kafka' | 'Redis';
  /** why it did not answer, or null when it did */
  error: string | null;
}

/**
 * Whether the process can do its job: every server it needs answers, and its health has no
 * reason to be degraded (writes to storage failing, a backlog growing, hits waiting too long).
 * A load balancer stops sending work to a process that is not ready; its liveness (`/live`) and
 * its health (`/health`, always 200) are not affected.
 */
export function readinessOf(health: HealthReport, checks: readonly DependencyCheck[]): ReadinessReport {
  const reasons = [...checks.filter((c) => c.error !== null).map((c) => `${c.name} unreachable: ${c.error}`), ...health.reasons];
  return { ready: reasons.length === 0, reasons };
}

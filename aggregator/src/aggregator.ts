import type { ClickHouseClient } from '@clickhouse/client';
import type { AcceptedHit, BatchHandler } from '@stat/schemas';
import { VisitCutter } from './sessions.js';
import { toEventRow } from './rows.js';

export interface AggregatorOptions {
  /** Pause between tries of a failed write; doubles up to maxRetryMs. */
  retryMs: number;
  maxRetryMs: number;
  log: (message: string) => void;
}

const DEFAULTS: AggregatorOptions = { retryMs: 250, maxRetryMs: 10_000, log: (m) => console.error(m) };

/**
 * Turns bus batches into `events` rows and writes them. The handler resolves only after
 * ClickHouse took the batch; while ClickHouse refuses, it waits and tries again, so the bus
 * never moves past an unwritten batch.
 */
export function createAggregator(clickhouse: ClickHouseClient, options: Partial<AggregatorOptions> = {}): {
  handle: BatchHandler;
  visits: VisitCutter;
  stop(): void;
} {
  const opts = { ...DEFAULTS, ...options };
  const visits = new VisitCutter();
  let stopped = false;
  // Hits arrive in server-time order per visitor; sort the batch so visits are cut in order.
  const handle = async (hits: AcceptedHit[]): Promise<void> => {
    const sorted = [...hits].sort((a, b) => a.at - b.at);
    const rows = sorted.map((h) => toEventRow(h, visits));
    const streamClock = sorted[sorted.length - 1]?.at ?? 0;
    let wait = opts.retryMs;
    for (;;) {
      try {
        await clickhouse.insert({ table: 'events', values: rows, format: 'JSONEachRow' });
        // Sweep by the stream's own clock, so replayed or generated history is cut the same way.
        visits.sweep(streamClock);
        return;
      } catch (error) {
        if (stopped) throw error;
        opts.log(`aggregator: write of ${rows.length} events failed, retrying in ${wait} ms: ${String(error)}`);
        await new Promise((resolve) => setTimeout(resolve, wait));
        wait = Math.min(wait * 2, opts.maxRetryMs);
      }
    }
  };
  return {
    handle,
    visits,
    stop: () => {
      stopped = true;
    },
  };
}

import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * Where the gauges read their values at each scrape, given by the composition root for the parts
 * the process runs (see Metrics.track); a gauge whose source was never given is not exposed, so
 * that a collector alone shows no freshness and an embedded process no consumer lag.
 */
export interface GaugeSources {
  /** hits held by the collector's buffer */
  collectorBuffer: () => number;
  /** hits in the durable hit log not yet stored (embedded mode) */
  busBacklog: () => number;
  /** server time (epoch ms) of the newest hit this process's aggregator stored, or null before the first */
  newestStoredAt: () => number | null;
  /** bytes of the collector's durable hit log on disk (DATA_DIR/hitlog) */
  hitLogBytes: () => number;
  /** segment files of that log */
  hitLogSegments: () => number;
  /** server time (epoch ms) of the oldest hit in that log not yet stored (embedded) or on Kafka (cluster), or null when none */
  hitLogOldestAt: () => number | null;
  /** Kafka: messages not yet committed by the consumer group, by partition (sampled, see KafkaWatch) */
  consumerLag: () => Promise<ReadonlyMap<number, number>>;
}

/** The gauge each source feeds. */
const GAUGES: { readonly [K in keyof GaugeSources]: { name: string; help: string } } = {
  collectorBuffer: { name: 'stat_collector_buffer_hits', help: 'Hits the collector accepted and holds, not yet handed to the bus.' },
  busBacklog: { name: 'stat_bus_backlog_hits', help: 'Hits in the durable hit log not yet stored by the aggregator (embedded mode).' },
  newestStoredAt: { name: 'stat_freshness_seconds', help: 'Age of the newest hit stored by this process\u2019s aggregator (its server time), seconds; NaN before the first.' },
  hitLogBytes: { name: 'stat_hitlog_bytes', help: 'Bytes of the collector\u2019s durable hit log on disk (acknowledged hits not yet released).' },
  hitLogSegments: { name: 'stat_hitlog_segments', help: 'Segment files of the collector\u2019s durable hit log.' },
  hitLogOldestAt: { name: 'stat_hitlog_oldest_unstored_seconds', help: 'Age of the oldest acknowledged hit in the durable log not yet stored (embedded) or on Kafka (cluster), seconds; 0 when none.' },
  consumerLag: { name: 'stat_consumer_lag', help: 'Messages of the hits topic not yet committed by the aggregators\u2019 consumer group, by partition (cluster mode).' },
};

/** The names of the gauges a process exposes once their sources are given. */
export const GAUGE_NAMES: readonly string[] = Object.values(GAUGES).map((g) => g.name);

/** The process's metrics: one registry, every metric of the service registered in it. */
export interface Metrics {
  readonly registry: Registry;
  /** Exposes the gauge fed by `source` (once; a second call replaces its source). */
  track<K extends keyof GaugeSources>(kind: K, source: GaugeSources[K]): void;
  readonly hitsAccepted: Counter;
  readonly hitsRefused: Counter<'reason'>;
  readonly batchSize: Histogram;
  readonly storageWriteSeconds: Histogram;
  /** One fdatasync of a group of hits in the durable log. */
  readonly hitLogSyncSeconds: Histogram;
  /** One sync of chDB's files to the disk, before the hit log lets go of the hits they hold. */
  readonly storageSyncSeconds: Histogram;
  readonly eventsStored: Counter;
  readonly eventsDeadLettered: Counter<'reason'>;
  readonly eventsDropped: Counter<'reason'>;
  readonly reportSeconds: Histogram<'report' | 'table'>;
  readonly httpRequests: Counter<'route' | 'method' | 'status'>;
  readonly httpRequestSeconds: Histogram<'route' | 'method'>;
  /** The exposition text of every metric, and its content type, for GET /metrics. */
  scrape(): Promise<{ contentType: string; body: string }>;
}

/** Seconds buckets of a ClickHouse write or a report query: a millisecond to half a minute. */
const SECONDS_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Hits in one aggregator batch: the collector sends up to COLLECTOR_BATCH (2 000) at once, Kafka fetches more. */
const BATCH_BUCKETS = [1, 10, 50, 100, 500, 1_000, 2_000, 5_000, 10_000, 50_000];
/** HTTP answers of the api: reports take tens of milliseconds, the rest less. */
const HTTP_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Builds the registry of one process: the service's metrics (names with the `stat_` prefix,
 * base units, `_total` on counters, labels from bounded sets only: never a url, a project or a
 * user) and prom-client's default process metrics (memory, CPU, event-loop lag).
 */
export function createMetrics(): Metrics {
  const registry = new Registry();
  const registers = [registry];
  /** A counter of this registry with one label, the reason (of a refusal, a drop, a dead letter). */
  const byReason = (name: string, help: string): Counter<'reason'> => new Counter({ name, labelNames: ['reason'] as const, help, registers });
  const sources: Partial<GaugeSources> = {};
  const track = <K extends keyof GaugeSources>(kind: K, source: GaugeSources[K]): void => {
    const registered = sources[kind] !== undefined;
    sources[kind] = source;
    if (registered) return;
    const { name, help } = GAUGES[kind];
    switch (kind) {
      case 'consumerLag':
        new Gauge({
          name,
          help,
          labelNames: ['partition'] as const,
          registers,
          async collect() {
            this.reset();
            // Kafka unreachable: no sample (and /ready says why), rather than a failed scrape.
            const lag = await sources.consumerLag!().catch(() => new Map<number, number>());
            for (const [partition, messages] of lag) this.set({ partition: String(partition) }, messages);
          },
        });
        return;
      case 'newestStoredAt':
        new Gauge({
          name,
          help,
          registers,
          collect() {
            const at = sources.newestStoredAt!();
            this.set(at === null ? Number.NaN : Math.max(0, (Date.now() - at) / 1000));
          },
        });
        return;
      case 'hitLogOldestAt':
        new Gauge({
          name,
          help,
          registers,
          collect() {
            const at = sources.hitLogOldestAt!();
            this.set(at === null ? 0 : Math.max(0, (Date.now() - at) / 1000));
          },
        });
        return;
      default: {
        new Gauge({
          name,
          help,
          registers,
          collect() {
            this.set((sources[kind] as () => number)());
          },
        });
      }
    }
  };

  const metrics: Metrics = {
    registry,
    track,
    hitsAccepted: new Counter({ name: 'stat_hits_accepted_total', help: 'Hits the collector acknowledged (204 or the pixel).', registers }),
    hitsRefused: byReason('stat_hits_refused_total', 'Hits the collector refused, by its refusal code.'),
    batchSize: new Histogram({ name: 'stat_aggregator_batch_size', help: 'Messages in one batch the aggregator handled.', buckets: BATCH_BUCKETS, registers }),
    storageWriteSeconds: new Histogram({
      name: 'stat_storage_write_seconds',
      help: 'Duration of one insert of event rows into ClickHouse, seconds (failed ones included).',
      buckets: SECONDS_BUCKETS,
      registers,
    }),
    hitLogSyncSeconds: new Histogram({
      name: 'stat_hitlog_fsync_seconds',
      help: 'Duration of one fdatasync of a group of hits in the collector\u2019s durable log, seconds.',
      buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers,
    }),
    storageSyncSeconds: new Histogram({
      name: 'stat_storage_sync_seconds',
      help: 'Duration of one sync of chDB\u2019s files to the disk (embedded mode), after which the hit log releases the hits stored before it, seconds.',
      buckets: SECONDS_BUCKETS,
      registers,
    }),
    eventsStored: new Counter({ name: 'stat_events_stored_total', help: 'Event rows the aggregator stored.', registers }),
    eventsDeadLettered: byReason('stat_events_dead_lettered_total', 'Messages the aggregator set aside in dead_hits, by reason.'),
    eventsDropped: byReason('stat_events_dropped_total', 'Hits the aggregator did not store on purpose, by reason.'),
    reportSeconds: new Histogram({
      name: 'stat_report_seconds',
      labelNames: ['report', 'table'] as const,
      help: 'Duration of one ClickHouse query of a report, seconds, by report and the table it read.',
      buckets: SECONDS_BUCKETS,
      registers,
    }),
    httpRequests: new Counter({
      name: 'stat_http_requests_total',
      labelNames: ['route', 'method', 'status'] as const,
      help: 'Requests the api answered, by route pattern, method and status.',
      registers,
    }),
    httpRequestSeconds: new Histogram({
      name: 'stat_http_request_seconds',
      labelNames: ['route', 'method'] as const,
      help: 'Time the api took to answer, seconds, by route pattern and method.',
      buckets: HTTP_BUCKETS,
      registers,
    }),
    scrape: async () => ({ contentType: registry.contentType, body: await registry.metrics() }),
  };
  collectDefaultMetrics({ register: registry });
  return metrics;
}

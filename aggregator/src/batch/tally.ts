import type { Metrics } from '@stat/telemetry';
import type { CutBatch } from './cut-batch.js';

/** What the aggregator has done since it started, for the operator. */
export interface AggregatorStats {
  stored: number;
  droppedBots: number;
  /** hits of pages the project's whitelist or blacklist excludes */
  droppedByRules: number;
  /** hits of projects that are unknown or deleted (only with counter settings to read) */
  droppedNoProject: number;
  skippedReplays: number;
  /** messages set aside in dead_hits: not accepted hits, or rows ClickHouse refused */
  deadLettered: number;
}

/** The aggregator's counters: its stats, the process's metrics, and the newest hit stored. */
export class Tally {
  /** live counters, handed out as they are */
  readonly stats: AggregatorStats = { stored: 0, droppedBots: 0, droppedByRules: 0, droppedNoProject: 0, skippedReplays: 0, deadLettered: 0 };
  /** server time of the newest hit stored, for stat_freshness_seconds */
  newestStoredAt: number | null = null;

  constructor(private readonly metrics: Metrics | null) {
    // Every reason from zero, so that a rate over it exists before the first.
    for (const reason of ['bot', 'counter_settings', 'no_project', 'replay']) metrics?.eventsDropped.inc({ reason }, 0);
    for (const reason of ['invalid_message', 'invalid_hit', 'storage_refused']) metrics?.eventsDeadLettered.inc({ reason }, 0);
  }

  /** Counts the messages of a batch that an earlier run stored. */
  skippedReplays(count: number): void {
    this.stats.skippedReplays += count;
    this.metrics?.eventsDropped.inc({ reason: 'replay' }, count);
  }

  /** Counts a written batch: what it stored, dropped and set aside. */
  written(batch: CutBatch): void {
    const stored = batch.rows.filter((r) => r.stored);
    this.stats.stored += stored.length;
    this.stats.droppedBots += batch.droppedBots;
    this.stats.droppedByRules += batch.droppedByRules;
    this.stats.droppedNoProject += batch.droppedNoProject;
    this.stats.deadLettered += batch.deadWritten;
    for (const { scope } of stored) if (this.newestStoredAt === null || scope.at > this.newestStoredAt) this.newestStoredAt = scope.at;
    if (!this.metrics) return;
    this.metrics.eventsStored.inc(stored.length);
    this.metrics.eventsDropped.inc({ reason: 'bot' }, batch.droppedBots);
    this.metrics.eventsDropped.inc({ reason: 'counter_settings' }, batch.droppedByRules);
    this.metrics.eventsDropped.inc({ reason: 'no_project' }, batch.droppedNoProject);
    for (const [reason, count] of batch.deadReasons) this.metrics.eventsDeadLettered.inc({ reason }, count);
  }
}

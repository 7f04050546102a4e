import type { AcceptedHit, HitPublisher } from '@stat/schemas';
import { atOf, HitLog, type HitLogGauges, type HitLogOptions, type LogRecord } from './hit-log.js';

export interface KafkaWithLogOptions extends HitLogOptions {
  /** Most bytes the log may hold for Kafka; past it the collector answers 503. */
  maxBytes: number;
  /** Most hits sent from the log to Kafka at once. */
  maxBatch: number;
  /** Pause after a failed send from the log before the next try. */
  retryMs: number;
  /** Where a problem of the log goes (an operator's warning). */
  warn?: (message: string) => void;
}

/**
 * The collector's publisher of cluster mode: Kafka (acks=all), and the durable log when Kafka
 * cannot take a group. A group that Kafka refused is appended to the log (fsynced) and is then
 * as durable as Kafka would have made it, so it is acknowledged; the log is sent on to Kafka in
 * order, and while it holds anything, new groups join it behind (a visitor's hits stay in
 * order). A group neither Kafka nor the disk took rejects: 503. A record leaves the log once
 * Kafka acknowledged it (the released offset is kept on disk, so a restart does not send it again).
 *
 * A send that Kafka stored but whose answer was lost (a timeout), or a send over several
 * partitions of which one failed, is sent again from the log: Kafka's idempotent producer covers
 * retries within one send, not this. So every hit sent from the log is marked `resent`, and the
 * aggregator stores it only when no event of its id is stored yet (aggregator/src/batch/resent-check.ts).
 */
export class KafkaWithLog implements HitPublisher {
  /** the offset of the first record not yet on Kafka */
  private nextToSend: number;
  /**
   * Records in the log not yet on Kafka. They stay on disk, not in memory: an outage of hours
   * fills the log up to HITLOG_MAX_BYTES, more than the process's memory should hold.
   */
  private unsent: number;
  /** server time of the first record not yet on Kafka, as last read; null when none is */
  private oldestUnsentAt: number | null = null;
  private forwarding: Promise<void> | null = null;
  private closed = false;
  /** the last failure of a send to Kafka, null once one succeeds */
  private kafkaError: unknown = null;

  private constructor(
    private readonly kafka: HitPublisher,
    private readonly log: HitLog,
    private readonly options: KafkaWithLogOptions,
    unsent: number,
  ) {
    this.unsent = unsent;
    this.nextToSend = log.releasedThrough + 1;
  }

  /**
   * Opens the log; what it holds from before (Kafka was away at the last stop or crash) is sent
   * first. `kafkaDown`: Kafka could not be reached just now, so hits go to the log from the first.
   */
  static open(kafka: HitPublisher, options: KafkaWithLogOptions, kafkaDown: unknown = null): KafkaWithLog {
    const { log, recovery } = HitLog.open({ ...options, collect: false });
    const publisher = new KafkaWithLog(kafka, log, options, recovery.unreleased);
    publisher.kafkaError = kafkaDown;
    publisher.forward();
    return publisher;
  }

  async publish(hits: readonly AcceptedHit[]): Promise<void> {
    if (hits.length === 0) return;
    if (this.unsent === 0 && this.kafkaError === null) {
      try {
        await this.kafka.publish(hits);
        return;
      } catch (error) {
        this.kafkaError = error;
      }
    }
    if (this.log.bytes >= this.options.maxBytes) throw new Error(`Kafka refuses hits and the hit log holds ${this.log.bytes} bytes, its limit`);
    const first = await this.log.append(hits.map((hit) => JSON.stringify(hit)));
    if (this.unsent === 0) {
      this.nextToSend = first;
      this.oldestUnsentAt = hits[0]!.at;
    }
    this.unsent += hits.length;
    this.forward();
  }

  /** Hits in the log not yet on Kafka. */
  get pending(): number {
    return this.unsent;
  }

  /** The same as pending: what a health report counts as held. */
  get size(): number {
    return this.unsent;
  }

  /** No bound in hits (the log's bound is in bytes, HITLOG_MAX_BYTES): the age of its oldest hit tells the outage. */
  get capacity(): number {
    return Number.POSITIVE_INFINITY;
  }

  /** Server time of the oldest hit in the log not yet on Kafka, or null. */
  get oldestAt(): number | null {
    return this.unsent > 0 ? this.oldestUnsentAt : null;
  }

  /** The log on disk, for its gauges. */
  get disk(): HitLogGauges {
    return this.log;
  }

  /** Sends what the log holds on to Kafka, until it is empty or `deadline` passes; then closes. */
  async close(deadline = Date.now() + 5_000): Promise<void> {
    while (this.forwarding && this.unsent > 0 && Date.now() < deadline) {
      await Promise.race([this.forwarding, sleep(Math.max(0, deadline - Date.now()))]);
    }
    this.closed = true;
    await this.log.close();
    await this.kafka.close();
  }

  private forward(): void {
    if (this.forwarding || this.unsent === 0 || this.closed) return;
    let failed = false;
    this.forwarding = this.sendBacklog()
      .catch((error: unknown) => {
        failed = true;
        this.options.warn?.(`hit log: reading it for Kafka failed, tried again: ${String(error)}`);
      })
      .finally(() => {
        this.forwarding = null;
        // After a failure (of Kafka or of the disk) the next try waits: no loop that spins on an error.
        if (this.unsent > 0 && !this.closed) setTimeout(() => this.forward(), failed || this.kafkaError !== null ? this.options.retryMs : 0);
      });
  }

  /**
   * The hits of a batch read back from the log. A record that passed its checksum yet is no JSON
   * (it cannot be sent, and trying again would block the log forever) is set aside beside the
   * log with its reason, and the batch goes on without it.
   */
  private readable(batch: readonly LogRecord[]): AcceptedHit[] {
    const hits: AcceptedHit[] = [];
    for (const { offset, payload } of batch) {
      try {
        // Marked: the send that put it in the log may have reached Kafka all the same (see resent).
        hits.push({ ...(JSON.parse(payload) as AcceptedHit), resent: true });
      } catch (error) {
        const file = this.log.setAside(offset, payload, `not JSON: ${String(error)}`);
        this.options.warn?.(`hit log: record ${offset} is no JSON; set aside in ${file}`);
      }
    }
    return hits;
  }

  /** Reads the log from the first unsent record and sends it on, batch by batch, in order. */
  private async sendBacklog(): Promise<void> {
    while (this.unsent > 0 && !this.closed) {
      const batch = await this.log.read(this.nextToSend, this.options.maxBatch);
      if (batch.length === 0) {
        // Nothing readable is left (what remained was set aside as damaged).
        this.unsent = 0;
        break;
      }
      this.oldestUnsentAt = atOf(batch[0]!.payload);
      // Parsed once: a record set aside is not set aside again at each retry of its batch.
      const hits = this.readable(batch);
      if (!(await this.sendUntilTaken(hits))) return;
      const last = batch[batch.length - 1]!.offset;
      this.nextToSend = last + 1;
      this.unsent = Math.max(0, this.unsent - batch.length);
      // Not kept on disk (a disk error): a restart would send these again, counted twice.
      await this.log.release(last).catch((error: unknown) => this.options.warn?.(`hit log: the sent offset was not kept: ${String(error)}`));
      if (this.unsent === 0) this.kafkaError = null;
    }
  }

  /** Sends one batch until Kafka takes it (true), or the publisher closes first (false). */
  private async sendUntilTaken(hits: readonly AcceptedHit[]): Promise<boolean> {
    while (!this.closed) {
      try {
        await this.kafka.publish(hits);
        return true;
      } catch (error) {
        this.kafkaError = error;
        await sleep(this.options.retryMs);
      }
    }
    return false;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

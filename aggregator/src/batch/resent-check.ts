import { eventKeyOf } from '@stat/schemas';
import type { EventStore } from '../storage.js';
import type { Message } from './messages.js';

/** The read of storage the check makes. */
export type ResentStore = Pick<EventStore, 'storedKeys'>;

/**
 * The check of hits the collector sent on from its log (`resent`, cluster mode): Kafka may hold
 * such a hit twice, at two offsets, when the send that put it in the log had reached Kafka after
 * all. The offsets cannot tell the copies apart, the hit's id can: a resent hit is left out when
 * an event of its id is stored, or when an earlier message of the same batch is the same hit
 * (both copies fetched together). First sends are not looked up: they cost nothing more.
 */
export class ResentCheck {
  constructor(private readonly store: ResentStore) {}

  /** The resent messages of a batch that are copies of a hit stored or earlier in the batch. */
  async copiesAmong(messages: readonly Message[]): Promise<Set<Message>> {
    const copies = new Set<Message>();
    const resent = messages.filter((m) => 'ok' in m.parsed && m.parsed.ok.resent === true);
    if (resent.length === 0) return copies;
    const firstOf = new Map<string, Message>();
    for (const m of messages) if ('ok' in m.parsed && !firstOf.has(m.parsed.ok.id)) firstOf.set(m.parsed.ok.id, m);
    const toLookUp: Message[] = [];
    for (const m of resent) {
      if (firstOf.get(idOf(m)) !== m) copies.add(m);
      else toLookUp.push(m);
    }
    const stored = await this.store.storedKeys(
      toLookUp.map((m) => eventKeyOf(idOf(m))),
      { projects: toLookUp.map((m) => m.scope!.project), times: toLookUp.map((m) => m.scope!.at) },
    );
    for (const m of toLookUp) if (stored.has(eventKeyOf(idOf(m)))) copies.add(m);
    return copies;
  }
}

/** The hit id of a message that parsed as a hit. */
function idOf(message: Message): string {
  if (!('ok' in message.parsed)) throw new Error('a message that is no hit has no id');
  return message.parsed.ok.id;
}

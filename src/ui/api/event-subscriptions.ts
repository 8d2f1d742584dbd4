import type { EventEnvelope } from '../../contracts/events';
import { SequenceDeduper } from '../../core/sequence-deduper';

export type RemoteSubscribe = (
  resourceId: string,
  afterSequence: number,
  onEvent: (envelope: EventEnvelope) => void,
) => Promise<{ close(): unknown }>;

interface Entry {
  resourceId: string;
  onEvent: (envelope: EventEnvelope) => void;
  deduper: SequenceDeduper;
  handle: Promise<{ close(): unknown } | undefined>;
  open: boolean;
}

/**
 * The page's side of event subscriptions. Remembers the last sequence of each
 * open subscription so that after a worker restart it re-subscribes from there;
 * the deduper removes the overlap and stops after the terminal event.
 */
export class EventSubscriptions {
  readonly #entries = new Set<Entry>();
  #remote: RemoteSubscribe;

  constructor(remote: RemoteSubscribe) {
    this.#remote = remote;
  }

  subscribe(resourceId: string, onEvent: (envelope: EventEnvelope) => void, afterSequence = 0): () => void {
    const entry: Entry = {
      resourceId,
      onEvent,
      deduper: new SequenceDeduper(),
      handle: Promise.resolve(undefined),
      open: true,
    };
    this.#entries.add(entry);
    this.#attach(entry, afterSequence);
    return () => this.#close(entry);
  }

  /** After the worker was replaced: resume every open subscription where it stopped. */
  reconnect(remote: RemoteSubscribe): void {
    this.#remote = remote;
    for (const entry of this.#entries) this.#attach(entry, entry.deduper.lastSequence(entry.resourceId) ?? 0);
  }

  get size(): number {
    return this.#entries.size;
  }

  #attach(entry: Entry, afterSequence: number): void {
    const deliver = (envelope: EventEnvelope) => {
      if (!entry.open || !entry.deduper.accept(envelope)) return;
      entry.onEvent(envelope);
      if (entry.deduper.isTerminated(entry.resourceId)) this.#close(entry);
    };
    entry.handle = this.#remote(entry.resourceId, afterSequence, deliver).catch((error: unknown) => {
      console.error('event subscription failed', error);
      return undefined;
    });
  }

  #close(entry: Entry): void {
    if (!entry.open) return;
    entry.open = false;
    this.#entries.delete(entry);
    void entry.handle.then((handle) => handle?.close());
  }
}

import { AppError, isTerminalEventName, toIsoUtc, type EventEnvelope, type SequencePage } from '../contracts';
import type { EventStore } from './event-store';
import { systemClock, type Clock } from './ids';
import { SequenceDeduper } from './sequence-deduper';

export type EventListener = (envelope: EventEnvelope) => void;

export interface Subscription {
  /** Stops delivery; safe to call more than once. */
  close(): void;
  /** Resolves when the subscription ends: terminal event delivered or closed. */
  readonly closed: Promise<void>;
}

/**
 * Resource event log: persisted before delivered, monotonic sequence per
 * resource, replay with `after_sequence`, then live, then exactly one terminal
 * event (docs/architecture.md, contract §4.4).
 */
export class EventLog {
  readonly #store: EventStore;
  readonly #clock: Clock;
  readonly #listeners = new Map<string, Set<EventListener>>();
  /** Resources known to have ended; a publish after the end is a bug upstream. */
  readonly #terminated = new Set<string>();
  readonly #knownOpen = new Set<string>();
  /** The last sequence delivered per open resource (an unstored end follows it). */
  readonly #lastDelivered = new Map<string, number>();
  /** Publishes per resource are chained so delivery order equals sequence order. */
  readonly #tails = new Map<string, Promise<unknown>>();

  constructor(store: EventStore, clock: Clock = systemClock) {
    this.#store = store;
    this.#clock = clock;
  }

  publish(resourceId: string, event: string, data: unknown): Promise<EventEnvelope> {
    return this.#chain(resourceId, () =>
      this.#publishNow(resourceId, event, (timestamp) =>
        this.#store.append(resourceId, event, data, timestamp),
      ),
    ) as Promise<EventEnvelope>;
  }

  /**
   * Publishes an event that `persist` stores itself, together with whatever
   * must change with it in one transaction (a job's row and its `Completed`),
   * so a crash never keeps one without the other. `persist` gets the event's
   * timestamp and returns the stored envelope, or undefined when it decided to
   * store nothing; then nothing is delivered. Ordered with `publish` per resource.
   */
  publishWith(
    resourceId: string,
    event: string,
    persist: (timestamp: string) => Promise<EventEnvelope | undefined>,
  ): Promise<EventEnvelope | undefined> {
    return this.#chain(resourceId, () => this.#publishNow(resourceId, event, persist));
  }

  /**
   * The one exception to "persisted before delivered": a resource whose end cannot be
   * stored (storage full, the database gone) still ends for those listening now, so no
   * view waits on it forever. The stored log keeps no end; the owner settles the stored
   * resource at its next start (the job runtime marks such a job interrupted). Ordered
   * after every publish before it; nothing is delivered if the resource has ended.
   */
  deliverUnstored(resourceId: string, event: string, data: unknown): Promise<EventEnvelope | undefined> {
    return this.#chain(resourceId, async () => {
      if (this.#terminated.has(resourceId)) return undefined;
      // Past the last event delivered here or stored, whichever is later (the store may be gone).
      const stored = await this.#store.last(resourceId).then(
        (last) => last?.sequence ?? 0,
        () => 0,
      );
      const envelope: EventEnvelope = {
        id: 0,
        sequence: Math.max(stored, this.#lastDelivered.get(resourceId) ?? 0) + 1,
        event,
        resource_id: resourceId,
        data,
        timestamp: toIsoUtc(this.#clock()),
      };
      this.#deliver(resourceId, event, envelope);
      return envelope;
    });
  }

  /**
   * The caller has just made this resource (a fresh id): it has no events, so
   * its first publish need not read the store looking for a terminal one.
   */
  markNew(resourceId: string): void {
    if (!this.#terminated.has(resourceId)) this.#knownOpen.add(resourceId);
  }

  #chain(
    resourceId: string,
    work: () => Promise<EventEnvelope | undefined>,
  ): Promise<EventEnvelope | undefined> {
    const previous = this.#tails.get(resourceId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(work);
    this.#tails.set(resourceId, next);
    const forget = () => {
      if (this.#tails.get(resourceId) === next) this.#tails.delete(resourceId);
    };
    next.then(forget, forget);
    return next;
  }

  async #publishNow(
    resourceId: string,
    event: string,
    persist: (timestamp: string) => Promise<EventEnvelope | undefined>,
  ): Promise<EventEnvelope | undefined> {
    // Checked once per resource: after that this log sees every event it appends.
    if (!this.#knownOpen.has(resourceId) && (await this.isTerminated(resourceId))) {
      throw new AppError(
        'STATE_CONFLICT',
        'This resource has already finished; no more events can be added.',
        {
          resource_id: resourceId,
          event,
        },
      );
    }
    this.#knownOpen.add(resourceId);
    const envelope = await persist(toIsoUtc(this.#clock()));
    if (envelope === undefined) return undefined;
    this.#deliver(resourceId, event, envelope);
    return envelope;
  }

  #deliver(resourceId: string, event: string, envelope: EventEnvelope): void {
    if (isTerminalEventName(event)) {
      this.#terminated.add(resourceId);
      this.#knownOpen.delete(resourceId);
      this.#lastDelivered.delete(resourceId);
    } else {
      this.#lastDelivered.set(resourceId, envelope.sequence);
    }
    for (const listener of [...(this.#listeners.get(resourceId) ?? [])]) listener(envelope);
  }

  async isTerminated(resourceId: string): Promise<boolean> {
    if (this.#terminated.has(resourceId)) return true;
    const last = await this.#store.last(resourceId);
    if (last && isTerminalEventName(last.event)) {
      this.#terminated.add(resourceId);
      return true;
    }
    return false;
  }

  async list(resourceId: string, afterSequence = 0, limit = 200): Promise<SequencePage<EventEnvelope>> {
    const items = await this.#store.list(resourceId, afterSequence, limit + 1);
    const has_more = items.length > limit;
    const page = has_more ? items.slice(0, limit) : items;
    return { items: page, next_sequence: page.at(-1)?.sequence ?? afterSequence, has_more };
  }

  /**
   * Missed events first, then live ones. The live listener is attached before
   * the replay is read so nothing published in between is lost; the deduper
   * drops the overlap.
   */
  subscribe(resourceId: string, afterSequence: number, onEvent: EventListener): Subscription {
    const deduper = new SequenceDeduper();
    let open = true;
    let replaying = true;
    const pending: EventEnvelope[] = [];
    let resolveClosed!: () => void;
    const closed = new Promise<void>((resolve) => (resolveClosed = resolve));

    const close = () => {
      if (!open) return;
      open = false;
      this.#listeners.get(resourceId)?.delete(live);
      resolveClosed();
    };
    const deliver = (envelope: EventEnvelope) => {
      if (!open || envelope.sequence <= afterSequence || !deduper.accept(envelope)) return;
      onEvent(envelope);
      if (deduper.isTerminated(resourceId)) close();
    };
    const live: EventListener = (envelope) => (replaying ? pending.push(envelope) : deliver(envelope));

    const listeners = this.#listeners.get(resourceId) ?? new Set<EventListener>();
    listeners.add(live);
    this.#listeners.set(resourceId, listeners);

    void (async () => {
      try {
        let cursor = afterSequence;
        for (;;) {
          const page = await this.list(resourceId, cursor, 500);
          for (const envelope of page.items) deliver(envelope);
          cursor = page.next_sequence;
          if (!page.has_more || !open) break;
        }
        replaying = false;
        for (const envelope of pending.splice(0)) deliver(envelope);
        // Subscribed after the end and past the terminal event: nothing will come.
        if (open && (await this.isTerminated(resourceId))) close();
      } catch (error) {
        console.error('event replay failed', error);
        close();
      }
    })();

    return { close, closed };
  }
}

import type { EventEnvelope } from '../contracts';

/**
 * Persistence for resource events. `append` assigns the next sequence of the
 * resource atomically, so two writers can never reuse one.
 */
export interface EventStore {
  append(resourceId: string, event: string, data: unknown, timestamp: string): Promise<EventEnvelope>;
  /** Events with sequence > afterSequence, ascending, at most `limit`. */
  list(resourceId: string, afterSequence: number, limit: number): Promise<EventEnvelope[]>;
  last(resourceId: string): Promise<EventEnvelope | undefined>;
}

/** In-memory EventStore for tests and for hosts without IndexedDB. */
export class MemoryEventStore implements EventStore {
  readonly #events = new Map<string, EventEnvelope[]>();

  async append(resourceId: string, event: string, data: unknown, timestamp: string): Promise<EventEnvelope> {
    const list = this.#events.get(resourceId) ?? [];
    const sequence = (list.at(-1)?.sequence ?? 0) + 1;
    const envelope: EventEnvelope = {
      id: sequence,
      sequence,
      event,
      resource_id: resourceId,
      data,
      timestamp,
    };
    list.push(envelope);
    this.#events.set(resourceId, list);
    return envelope;
  }

  async list(resourceId: string, afterSequence: number, limit: number): Promise<EventEnvelope[]> {
    const list = this.#events.get(resourceId) ?? [];
    return list.filter((envelope) => envelope.sequence > afterSequence).slice(0, limit);
  }

  async last(resourceId: string): Promise<EventEnvelope | undefined> {
    return this.#events.get(resourceId)?.at(-1);
  }
}

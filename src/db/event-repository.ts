import type { EventEnvelope } from '../contracts';
import type { EventStore } from '../core/event-store';
import { Dexie, type NotesAgentDatabase } from './database';
import type { EventRow } from './schema';

function toEnvelope(row: EventRow): EventEnvelope {
  return { id: row.sequence, ...row };
}

/**
 * Events keyed by [resource_id+sequence]: the idempotency key is the primary
 * key, so a replayed write can never create a second copy.
 */
export class EventRepository implements EventStore {
  readonly #db: NotesAgentDatabase;
  readonly #lastSequence = new Map<string, number>();
  readonly #tails = new Map<string, Promise<unknown>>();

  constructor(db: NotesAgentDatabase) {
    this.#db = db;
  }

  /**
   * Appends to one resource are serialised here and the next sequence comes
   * from a cache, so an append is one write. Another tab appending to the same
   * resource makes the add collide on the primary key; then the sequence is
   * re-read from the table and the write retried, so none is ever reused.
   */
  append(resourceId: string, event: string, data: unknown, timestamp: string): Promise<EventEnvelope> {
    const previous = this.#tails.get(resourceId) ?? Promise.resolve();
    const next = previous.then(
      () => this.#appendNow(resourceId, event, data, timestamp),
      () => this.#appendNow(resourceId, event, data, timestamp),
    );
    this.#tails.set(resourceId, next);
    const forget = () => {
      if (this.#tails.get(resourceId) === next) this.#tails.delete(resourceId);
    };
    next.then(forget, forget);
    return next;
  }

  async #appendNow(
    resourceId: string,
    event: string,
    data: unknown,
    timestamp: string,
  ): Promise<EventEnvelope> {
    for (let attempt = 0; ; attempt++) {
      const last = this.#lastSequence.get(resourceId) ?? (await this.#lastRow(resourceId))?.sequence ?? 0;
      const row: EventRow = { resource_id: resourceId, sequence: last + 1, event, data, timestamp };
      try {
        await this.#db.events.add(row);
        this.#lastSequence.set(resourceId, row.sequence);
        return toEnvelope(row);
      } catch (error) {
        this.#lastSequence.delete(resourceId);
        if ((error as { name?: string }).name !== 'ConstraintError' || attempt >= 10) throw error;
      }
    }
  }

  async list(resourceId: string, afterSequence: number, limit: number): Promise<EventEnvelope[]> {
    const rows = await this.#db.events
      .where('[resource_id+sequence]')
      .between([resourceId, afterSequence], [resourceId, Dexie.maxKey], false, true)
      .limit(limit)
      .toArray();
    return rows.map(toEnvelope);
  }

  async last(resourceId: string): Promise<EventEnvelope | undefined> {
    const row = await this.#lastRow(resourceId);
    return row && toEnvelope(row);
  }

  #lastRow(resourceId: string): Promise<EventRow | undefined> {
    return this.#db.events
      .where('[resource_id+sequence]')
      .between([resourceId, Dexie.minKey], [resourceId, Dexie.maxKey])
      .last();
  }
}

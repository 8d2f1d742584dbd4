import type { EventEnvelope } from '../contracts';
import type { EventStore } from '../core/event-store';
import { Dexie, type NotesAgentDatabase } from './database';
import type { Table } from 'dexie';
import type { EventRow } from './schema';
import { mapStorageError } from './storage-errors';

function toEnvelope(row: EventRow): EventEnvelope {
  return { id: row.sequence, ...row };
}

/** A duplicate key, alone or inside the BulkError that bulkAdd throws. */
function isConstraintError(error: unknown): boolean {
  const failure = error as { name?: string; failures?: { name?: string }[]; inner?: unknown };
  if (failure?.name === 'ConstraintError') return true;
  if (failure?.failures?.some((inner) => inner?.name === 'ConstraintError')) return true;
  return failure?.inner !== undefined && failure.inner !== error && isConstraintError(failure.inner);
}

interface PendingAppend {
  resourceId: string;
  event: string;
  data: unknown;
  timestamp: string;
  resolve(envelope: EventEnvelope): void;
  reject(error: unknown): void;
}

/** Another tab took a sequence this tab had cached: re-read and write the batch again. */
const MAX_COLLISION_RETRIES = 10;

/**
 * Events keyed by [resource_id+sequence]: the idempotency key is the primary
 * key, so a replayed write can never create a second copy.
 *
 * Appends are group-committed: those that arrive while a write is in flight are
 * written together, in call order, in one transaction. Each append still
 * resolves only once its row is durable (persist before deliver), but a busy
 * log pays one transaction per batch instead of one per event.
 */
export class EventRepository implements EventStore {
  readonly #db: NotesAgentDatabase;
  readonly #lastSequence = new Map<string, number>();
  #pending: PendingAppend[] = [];
  #flushing = false;

  constructor(db: NotesAgentDatabase) {
    this.#db = db;
  }

  append(resourceId: string, event: string, data: unknown, timestamp: string): Promise<EventEnvelope> {
    return new Promise((resolve, reject) => {
      this.#pending.push({ resourceId, event, data, timestamp, resolve, reject });
      if (!this.#flushing) void this.#flush();
    });
  }

  async #flush(): Promise<void> {
    this.#flushing = true;
    try {
      // Let the appends of the current task join the first batch.
      await Promise.resolve();
      while (this.#pending.length > 0) {
        const batch = this.#pending;
        this.#pending = [];
        await this.#writeBatch(batch);
      }
    } finally {
      this.#flushing = false;
    }
  }

  /**
   * Sequences come from a per-resource cache, so a batch is one bulk write. When
   * another tab appended to the same resource meanwhile, the write collides on
   * the primary key and the whole transaction rolls back; the sequences are then
   * re-read from the table and the batch written again, so none is ever reused.
   */
  async #writeBatch(batch: PendingAppend[]): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        const rows = await Dexie.ignoreTransaction(() =>
          this.#db.transaction('rw', this.#db.events, async () => {
            const next = new Map<string, number>();
            const rows: EventRow[] = [];
            for (const { resourceId, event, data, timestamp } of batch) {
              let last = next.get(resourceId) ?? this.#lastSequence.get(resourceId);
              last ??= (await this.#lastRow(resourceId))?.sequence ?? 0;
              next.set(resourceId, last + 1);
              rows.push({ resource_id: resourceId, sequence: last + 1, event, data, timestamp });
            }
            await this.#db.events.bulkAdd(rows);
            return rows;
          }),
        );
        for (const row of rows) this.#lastSequence.set(row.resource_id, row.sequence);
        rows.forEach((row, i) => batch[i]!.resolve(toEnvelope(row)));
        return;
      } catch (error) {
        for (const { resourceId } of batch) this.#lastSequence.delete(resourceId);
        if (!isConstraintError(error) || attempt >= MAX_COLLISION_RETRIES) {
          const failure = mapStorageError(error);
          for (const append of batch) append.reject(failure);
          return;
        }
      }
    }
  }

  /**
   * Appends one event and, in the same transaction, the caller's own writes:
   * `write` runs first, inside a transaction over `events` and `tables`, and
   * returns its value and the event's data (which may depend on what it
   * wrote); returning undefined stores nothing (no event either). A resource's row and
   * the event saying it changed are then stored together or not at all, at the
   * cost of one transaction instead of two. Collisions with another tab are
   * retried as in a batch.
   */
  async appendWith<T>(
    resourceId: string,
    event: string,
    timestamp: string,
    tables: readonly Table[],
    write: () => Promise<{ value: T; data: unknown } | undefined>,
  ): Promise<{ value: T; envelope: EventEnvelope } | undefined> {
    for (let attempt = 0; ; attempt++) {
      try {
        const done = await Dexie.ignoreTransaction(() =>
          this.#db.transaction('rw', [this.#db.events, ...tables], async () => {
            const written = await write();
            if (written === undefined) return undefined;
            const { value, data } = written;
            const last =
              this.#lastSequence.get(resourceId) ?? (await this.#lastRow(resourceId))?.sequence ?? 0;
            const row: EventRow = { resource_id: resourceId, sequence: last + 1, event, data, timestamp };
            await this.#db.events.add(row);
            return { value, row };
          }),
        );
        if (done === undefined) return undefined;
        this.#lastSequence.set(resourceId, done.row.sequence);
        return { value: done.value, envelope: toEnvelope(done.row) };
      } catch (error) {
        this.#lastSequence.delete(resourceId);
        if (!isConstraintError(error) || attempt >= MAX_COLLISION_RETRIES) throw mapStorageError(error);
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

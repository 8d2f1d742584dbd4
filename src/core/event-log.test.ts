import { describe, expect, it } from 'vitest';
import { AppError, type EventEnvelope } from '../contracts';
import { EventLog } from './event-log';
import { MemoryEventStore, type EventStore } from './event-store';
import { SequenceDeduper } from './sequence-deduper';

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('EventLog', () => {
  it('persists before it delivers, with a monotonic sequence per resource', async () => {
    const store = new MemoryEventStore();
    const log = new EventLog(store, () => Date.UTC(2026, 7, 31, 10, 30));
    const seenInStore: number[] = [];
    log.subscribe('r1', 0, (envelope) => {
      // Delivery happens after the write: the event is already readable.
      void store.last('r1').then((last) => seenInStore.push(last!.sequence - envelope.sequence));
    });
    const a = await log.publish('r1', 'Progress', { n: 1 });
    const b = await log.publish('r2', 'Progress', { n: 1 });
    const c = await log.publish('r1', 'Progress', { n: 2 });
    expect([a.sequence, b.sequence, c.sequence]).toEqual([1, 1, 2]);
    expect(a).toMatchObject({
      id: 1,
      resource_id: 'r1',
      event: 'Progress',
      timestamp: '2026-08-31T10:30:00.000Z',
    });
    await tick();
    expect(seenInStore.every((delta) => delta >= 0)).toBe(true);
  });

  it('replays after after_sequence, then live events, then exactly one terminal event', async () => {
    const log = new EventLog(new MemoryEventStore());
    for (let i = 1; i <= 5; i++) await log.publish('job', 'Progress', { i });
    const seen: EventEnvelope[] = [];
    const subscription = log.subscribe('job', 3, (envelope) => seen.push(envelope));
    await log.publish('job', 'Progress', { i: 6 });
    await log.publish('job', 'Completed', {});
    await subscription.closed;
    expect(seen.map((e) => e.sequence)).toEqual([4, 5, 6, 7]);
    expect(seen.filter((e) => e.event === 'Completed')).toHaveLength(1);
  });

  it('does not lose or duplicate events published while the replay is read', async () => {
    const inner = new MemoryEventStore();
    let slow = true;
    const store: EventStore = {
      append: (...args) => inner.append(...args),
      last: (id) => inner.last(id),
      list: async (id, after, limit) => {
        const page = await inner.list(id, after, limit);
        if (slow) {
          slow = false;
          // A live publish lands between reading the replay and attaching live delivery.
          await log.publish('job', 'Progress', { during: true });
        }
        return page;
      },
    };
    const log = new EventLog(store);
    await log.publish('job', 'Queued', {});
    await log.publish('job', 'Progress', {});
    const seen: number[] = [];
    const subscription = log.subscribe('job', 0, (envelope) => seen.push(envelope.sequence));
    await tick();
    await log.publish('job', 'Failed', {});
    await subscription.closed;
    expect(seen).toEqual([1, 2, 3, 4]);
  });

  it('refuses events after the terminal one, also after a reload', async () => {
    const store = new MemoryEventStore();
    const log = new EventLog(store);
    await log.publish('job', 'Cancelled', {});
    const isConflict = (error: unknown) => error instanceof AppError && error.code === 'STATE_CONFLICT';
    await expect(log.publish('job', 'Completed', {})).rejects.toSatisfy(isConflict);
    await expect(new EventLog(store).publish('job', 'Failed', {})).rejects.toSatisfy(isConflict);
    expect((await store.list('job', 0, 10)).map((e) => e.event)).toEqual(['Cancelled']);
  });

  it('closes a subscription that starts after the terminal event was already seen', async () => {
    const log = new EventLog(new MemoryEventStore());
    await log.publish('job', 'Queued', {});
    await log.publish('job', 'Completed', {});
    const seen: EventEnvelope[] = [];
    await log.subscribe('job', 2, (envelope) => seen.push(envelope)).closed;
    expect(seen).toEqual([]);
    const replayed: string[] = [];
    await log.subscribe('job', 0, (envelope) => replayed.push(envelope.event)).closed;
    expect(replayed).toEqual(['Queued', 'Completed']);
  });

  it('delivers an end that cannot be stored to those listening, after the events before it, and stores nothing', async () => {
    const store = new MemoryEventStore();
    const log = new EventLog(store);
    await log.publish('job', 'Queued', {});
    await log.publish('job', 'Progress', { n: 1 });
    const seen: EventEnvelope[] = [];
    const subscription = log.subscribe('job', 0, (envelope) => seen.push(envelope));
    await tick();
    const ended = await log.deliverUnstored('job', 'Failed', { error: { code: 'STORAGE_QUOTA_EXCEEDED' } });
    await subscription.closed;
    expect(seen.map((envelope) => [envelope.sequence, envelope.event])).toEqual([
      [1, 'Queued'],
      [2, 'Progress'],
      [3, 'Failed'],
    ]);
    expect(ended).toMatchObject({ sequence: 3, data: { error: { code: 'STORAGE_QUOTA_EXCEEDED' } } });
    expect((await store.list('job', 0, 10)).map((e) => e.event)).toEqual(['Queued', 'Progress']);
    // Ended here: no more events, and no second end.
    await expect(log.publish('job', 'Progress', {})).rejects.toSatisfy(
      (error) => error instanceof AppError && error.code === 'STATE_CONFLICT',
    );
    expect(await log.deliverUnstored('job', 'Failed', {})).toBeUndefined();
  });

  it('numbers an unstored end past what was delivered when the store cannot be read', async () => {
    const store = new MemoryEventStore();
    const log = new EventLog(store);
    await log.publish('job', 'Queued', {});
    await log.publish('job', 'Progress', {});
    const seen: number[] = [];
    log.subscribe('job', 0, (envelope) => seen.push(envelope.sequence));
    await tick();
    store.last = () => Promise.reject(new Error('Database has been closed'));
    await log.deliverUnstored('job', 'Failed', {});
    expect(seen).toEqual([1, 2, 3]);
  });

  it('pages events with next_sequence and has_more', async () => {
    const log = new EventLog(new MemoryEventStore());
    for (let i = 0; i < 5; i++) await log.publish('r', 'Progress', { i });
    const first = await log.list('r', 0, 2);
    expect(first.items.map((e) => e.sequence)).toEqual([1, 2]);
    expect(first).toMatchObject({ next_sequence: 2, has_more: true });
    const last = await log.list('r', 4, 2);
    expect(last).toMatchObject({ next_sequence: 5, has_more: false });
    expect((await log.list('r', 5, 2)).next_sequence).toBe(5);
  });
});

describe('SequenceDeduper', () => {
  const envelope = (sequence: number, event = 'Progress'): EventEnvelope => ({
    id: sequence,
    sequence,
    event,
    resource_id: 'r',
    data: {},
    timestamp: '2026-08-31T10:30:00Z',
  });

  it('drops duplicates and anything after the terminal event', () => {
    const deduper = new SequenceDeduper();
    const accepted = [1, 2, 2, 1, 3, 4, 5].map((s) =>
      deduper.accept(envelope(s, s === 4 ? 'Completed' : 'Progress')),
    );
    expect(accepted).toEqual([true, true, false, false, true, true, false]);
    expect(deduper.lastSequence('r')).toBe(4);
  });

  it('publishWith delivers what its own write stored, in order with publish, and nothing when it stored nothing', async () => {
    const store = new MemoryEventStore();
    const log = new EventLog(store);
    const seen: string[] = [];
    log.subscribe('r1', 0, (envelope) => seen.push(`${envelope.sequence} ${envelope.event}`));
    const first = log.publish('r1', 'Queued', {});
    const skipped = log.publishWith('r1', 'Started', async () => undefined);
    const stored = log.publishWith('r1', 'Completed', (timestamp) =>
      store.append('r1', 'Completed', { done: true }, timestamp),
    );
    expect((await first).sequence).toBe(1);
    expect(await skipped).toBeUndefined();
    expect(await stored).toMatchObject({ sequence: 2, data: { done: true } });
    await tick();
    expect(seen).toEqual(['1 Queued', '2 Completed']);
    await expect(log.publish('r1', 'Progress', {})).rejects.toSatisfy(
      (error) => error instanceof AppError && error.code === 'STATE_CONFLICT',
    );
  });

  it('does not look for an end of a resource marked new', async () => {
    const store = new MemoryEventStore();
    let lastReads = 0;
    const last = store.last.bind(store);
    store.last = (resourceId) => {
      lastReads += 1;
      return last(resourceId);
    };
    const log = new EventLog(store);
    log.markNew('fresh');
    await log.publish('fresh', 'Queued', {});
    expect(lastReads).toBe(0);
    await log.publish('old', 'Queued', {});
    expect(lastReads).toBe(1);
  });
});

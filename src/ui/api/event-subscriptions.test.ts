import { describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../contracts';
import { EventLog } from '../../core/event-log';
import { MemoryEventStore } from '../../core/event-store';
import { EventSubscriptions, type RemoteSubscribe } from './event-subscriptions';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

function remoteOver(log: EventLog, calls: number[]): RemoteSubscribe {
  return async (resourceId, after, onEvent) => {
    calls.push(after);
    return log.subscribe(resourceId, after, onEvent);
  };
}

describe('EventSubscriptions', () => {
  it('re-subscribes with its last sequence after a worker restart and delivers each event once', async () => {
    const log = new EventLog(new MemoryEventStore());
    const calls: number[] = [];
    const subscriptions = new EventSubscriptions(remoteOver(log, calls));
    const seen: EventEnvelope[] = [];
    subscriptions.subscribe('job', (e) => seen.push(e));
    await log.publish('job', 'Queued', {});
    await log.publish('job', 'Progress', { n: 1 });
    await tick();

    // The worker dies and its subscriptions with it; the new one re-reads from the same store.
    const replay = new MemoryEventStore();
    const revived = new EventLog(replay);
    for (const e of ['Queued', 'Progress', 'Progress'])
      await replay.append('job', e, {}, new Date().toISOString());
    subscriptions.reconnect(remoteOver(revived, calls));
    await tick();
    await revived.publish('job', 'Completed', {});
    await tick();

    expect(calls).toEqual([0, 2]);
    expect(seen.map((e) => `${e.sequence}:${e.event}`)).toEqual([
      '1:Queued',
      '2:Progress',
      '3:Progress',
      '4:Completed',
    ]);
    expect(subscriptions.size).toBe(0);
  });

  it('stops delivering after unsubscribe', async () => {
    const log = new EventLog(new MemoryEventStore());
    const subscriptions = new EventSubscriptions(remoteOver(log, []));
    const seen: string[] = [];
    const unsubscribe = subscriptions.subscribe('r', (e) => seen.push(e.event));
    await log.publish('r', 'Progress', {});
    await tick();
    unsubscribe();
    await log.publish('r', 'Progress', {});
    await tick();
    expect(seen).toEqual(['Progress']);
  });
});

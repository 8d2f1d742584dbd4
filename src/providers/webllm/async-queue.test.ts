import { describe, expect, it } from 'vitest';
import { AsyncQueue } from './async-queue';

async function drain<T>(queue: AsyncQueue<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of queue) items.push(item);
  return items;
}

describe('AsyncQueue', () => {
  it('delivers pushed items in order, before and after the consumer waits', async () => {
    const queue = new AsyncQueue<number>();
    queue.push(1);
    const drained = drain(queue);
    queue.push(2);
    await queue.ready();
    queue.push(3);
    queue.close();
    expect(await drained).toEqual([1, 2, 3]);
  });

  it('throws its error after the queued items; ready() rejects only before any item', async () => {
    const early = new AsyncQueue<number>();
    early.fail(new Error('no engine'));
    await expect(early.ready()).rejects.toThrow('no engine');

    const late = new AsyncQueue<number>();
    late.push(1);
    late.fail(new Error('broken'));
    await expect(late.ready()).resolves.toBeUndefined();
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const item of late) seen.push(item);
      })(),
    ).rejects.toThrow('broken');
    expect(seen).toEqual([1]);
  });

  it('drops pushes after the consumer stopped', async () => {
    const queue = new AsyncQueue<number>();
    queue.push(1);
    for await (const item of queue) {
      expect(item).toBe(1);
      break;
    }
    queue.push(2);
    queue.fail(new Error('ignored'));
    expect(await drain(queue)).toEqual([]);
  });
});

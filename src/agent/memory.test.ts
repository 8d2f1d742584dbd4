import { describe, expect, it } from 'vitest';
import { metonaMemoryItemSchema, type MetonaMemoryItem } from '../ir';
import { MemoryItemStore, memoryTerms, pruneExpiredMemories, recallMemories } from './memory';
import { DAY, NOW, memoryItem as item } from './__fixtures__/memory-items';

async function store(...items: MetonaMemoryItem[]): Promise<MemoryItemStore> {
  const memories = new MemoryItemStore();
  for (const memory of items) await memories.put(memory);
  return memories;
}

describe('memoryTerms', () => {
  it('splits English words and Chinese characters and pairs', () => {
    expect([...memoryTerms('The Deadlock notes')]).toEqual(['deadlock', 'notes']);
    expect([...memoryTerms('复习死锁')]).toEqual(['复', '复习', '习', '习死', '死', '死锁', '锁']);
    expect(memoryTerms('OS死锁').has('os')).toBe(true);
  });
});

describe('recallMemories', () => {
  it('ranks by overlap, then importance and recency, and reports the score', async () => {
    const memories = await store(
      item('tea', 'The user likes green tea in the morning.', { importance: 0.9 }),
      item('deadlock', 'The user is studying deadlock detection for the OS exam.', { importance: 0.4 }),
      item('deadlock-old', 'Deadlock notes live in the os folder.', {
        importance: 0.4,
        createdAt: NOW - 90 * DAY,
      }),
    );
    const recalled = await recallMemories(memories, 'help me review deadlock', { now: NOW });
    expect(recalled.map((m) => m.id)).toEqual(['deadlock', 'deadlock-old']);
    for (const memory of recalled) {
      expect(metonaMemoryItemSchema.safeParse(memory).success).toBe(true);
      expect(memory.relevanceScore).toBeGreaterThan(0);
    }
    expect(recalled[0]!.relevanceScore!).toBeGreaterThan(recalled[1]!.relevanceScore!);
  });

  it('finds Chinese memories from a Chinese query', async () => {
    const memories = await store(item('zh', '用户正在复习操作系统的死锁'), item('other', '用户喜欢绿茶'));
    const recalled = await recallMemories(memories, '查找死锁内容', { now: NOW });
    expect(recalled.map((m) => m.id)).toEqual(['zh']);
  });

  it('never returns expired items and prunes them on request', async () => {
    const memories = await store(
      item('live', 'deadlock exam on Friday', { expiresAt: NOW + DAY }),
      item('gone', 'deadlock exam on Monday', { expiresAt: NOW - 1 }),
    );
    expect((await recallMemories(memories, 'deadlock exam', { now: NOW })).map((m) => m.id)).toEqual([
      'live',
    ]);
    expect(await pruneExpiredMemories(memories, NOW)).toBe(1);
    expect((await memories.list()).map((m) => m.id)).toEqual(['live']);
  });

  it('honours limit and session filters of the store', async () => {
    const memories = await store(
      item('a', 'deadlock one', { sessionId: 's1' }),
      item('b', 'deadlock two', { sessionId: 's2' }),
      item('c', 'deadlock three', { sessionId: 's1', type: 'working' }),
    );
    expect(await recallMemories(memories, 'deadlock', { now: NOW, limit: 2 })).toHaveLength(2);
    expect((await memories.list({ sessionId: 's1' })).map((m) => m.id)).toEqual(['a', 'c']);
    expect((await memories.list({ type: 'working' })).map((m) => m.id)).toEqual(['c']);
    const boosted = await recallMemories(memories, 'deadlock', { now: NOW, sessionId: 's2' });
    expect(boosted[0]?.id).toBe('b');
    expect(await memories.delete('a')).toBe(true);
  });
});

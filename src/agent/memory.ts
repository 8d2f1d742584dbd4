import type { MetonaMemoryItem, MetonaMemoryType } from '../ir';

/**
 * Agent memory (the standard's MetonaMemoryItem): a store port (IndexedDB in
 * the app, a Map here) and recall by relevance. The store is what the user
 * views and deletes; recall never returns expired items.
 */

export interface MemoryQuery {
  sessionId?: string;
  type?: MetonaMemoryType;
}

export interface MemoryStore {
  put(item: MetonaMemoryItem): Promise<void>;
  get(id: string): Promise<MetonaMemoryItem | undefined>;
  list(query?: MemoryQuery): Promise<MetonaMemoryItem[]>;
  delete(id: string): Promise<boolean>;
}

export class MemoryItemStore implements MemoryStore {
  readonly #items = new Map<string, MetonaMemoryItem>();

  async put(item: MetonaMemoryItem): Promise<void> {
    this.#items.set(item.id, { ...item });
  }

  async get(id: string): Promise<MetonaMemoryItem | undefined> {
    const item = this.#items.get(id);
    return item && { ...item };
  }

  async list(query: MemoryQuery = {}): Promise<MetonaMemoryItem[]> {
    return [...this.#items.values()]
      .filter((item) => query.sessionId === undefined || item.sessionId === query.sessionId)
      .filter((item) => query.type === undefined || item.type === query.type)
      .map((item) => ({ ...item }));
  }

  async delete(id: string): Promise<boolean> {
    return this.#items.delete(id);
  }
}

const STOP_WORDS = new Set([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'for', 'from', 'how', 'i', 'in', 'is', 'it', 'me', 'my',
  'of', 'on', 'or', 'the', 'to', 'was', 'what', 'when', 'where', 'which', 'who', 'with', 'you', 'your',
  '的', '了', '是', '在', '我', '你', '和', '吗', '呢', '把', '也', '就', '都', '与',
]); // prettier-ignore

const HAN = /\p{Script=Han}/u;

/**
 * Terms for overlap scoring: Latin words and digits lower-cased (stop words
 * dropped), Han characters as single characters plus adjacent pairs, so
 * "死锁复习" matches "复习死锁" partly and "死锁" fully.
 */
export function memoryTerms(text: string): Set<string> {
  const terms = new Set<string>();
  for (const run of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (!HAN.test(run)) {
      if (!STOP_WORDS.has(run) && run.length > 1) terms.add(run);
      continue;
    }
    const characters = [...run];
    let latin = '';
    for (let index = 0; index < characters.length; index++) {
      const character = characters[index] ?? '';
      if (!HAN.test(character)) {
        latin += character;
        continue;
      }
      if (latin.length > 1 && !STOP_WORDS.has(latin)) terms.add(latin);
      latin = '';
      if (!STOP_WORDS.has(character)) terms.add(character);
      const next = characters[index + 1];
      if (next && HAN.test(next)) terms.add(character + next);
    }
    if (latin.length > 1 && !STOP_WORDS.has(latin)) terms.add(latin);
  }
  return terms;
}

export interface RecallOptions {
  now: number;
  limit?: number;
  /** Items of this session rank a little higher; items of other sessions still count. */
  sessionId?: string;
  /** Items scoring below this are left out. */
  minScore?: number;
  /** Recency halves every this many ms (default 7 days). */
  recencyHalfLifeMs?: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const WEIGHTS = { overlap: 0.6, importance: 0.25, recency: 0.15 };
const SESSION_BONUS = 0.05;

/**
 * Relevance = 0.6·overlap + 0.25·importance + 0.15·recency (+0.05 for the same
 * session). Overlap is the share of the query's terms found in the item (its
 * summary included); an item sharing no term with the query is not relevant
 * at all, whatever its importance. Expired items never come back.
 */
export function scoreMemory(
  item: MetonaMemoryItem,
  queryTerms: ReadonlySet<string>,
  options: RecallOptions,
): number {
  if (item.expiresAt !== undefined && item.expiresAt <= options.now) return 0;
  if (queryTerms.size === 0) return 0;
  const itemTerms = memoryTerms(`${item.content} ${item.summary ?? ''}`);
  let shared = 0;
  for (const term of queryTerms) if (itemTerms.has(term)) shared += 1;
  if (shared === 0) return 0;
  const overlap = shared / queryTerms.size;
  const halfLife = options.recencyHalfLifeMs ?? 7 * DAY_MS;
  const age = Math.max(0, options.now - item.createdAt);
  const recency = 0.5 ** (age / halfLife);
  const bonus = options.sessionId !== undefined && item.sessionId === options.sessionId ? SESSION_BONUS : 0;
  return WEIGHTS.overlap * overlap + WEIGHTS.importance * item.importance + WEIGHTS.recency * recency + bonus;
}

/** The most relevant items for `query`, best first, each with its `relevanceScore`. */
export async function recallMemories(
  store: MemoryStore,
  query: string,
  options: RecallOptions,
): Promise<MetonaMemoryItem[]> {
  const terms = memoryTerms(query);
  const minScore = options.minScore ?? 0.2;
  const scored = (await store.list())
    .map((item) => ({ item, score: scoreMemory(item, terms, options) }))
    .filter(({ score }) => score > 0 && score >= minScore)
    .sort((a, b) => b.score - a.score || b.item.createdAt - a.item.createdAt);
  return scored
    .slice(0, options.limit ?? 5)
    .map(({ item, score }) => ({ ...item, relevanceScore: Math.round(score * 1000) / 1000 }));
}

/** Drops expired items from the store (memory cleanup, not context compression). */
export async function pruneExpiredMemories(store: MemoryStore, now: number): Promise<number> {
  let removed = 0;
  for (const item of await store.list()) {
    if (item.expiresAt !== undefined && item.expiresAt <= now && (await store.delete(item.id))) removed += 1;
  }
  return removed;
}

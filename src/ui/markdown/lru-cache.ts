export interface LruCacheOptions<V> {
  /** Most entries kept. */
  maxEntries: number;
  /** Most total weight kept (see `weigh`); unbounded when absent. */
  maxWeight?: number;
  /** An entry's weight, e.g. its length: one huge value must not pin megabytes. */
  weigh?: (value: V) => number;
}

/**
 * A map that forgets its least recently used entries beyond a count and a total
 * weight. A value heavier than the whole budget is not kept at all.
 */
export class LruCache<K, V> {
  readonly #entries = new Map<K, { value: V; weight: number }>();
  readonly #maxEntries: number;
  readonly #maxWeight: number;
  readonly #weigh: (value: V) => number;
  #weight = 0;

  constructor(options: LruCacheOptions<V>) {
    this.#maxEntries = options.maxEntries;
    this.#maxWeight = options.maxWeight ?? Number.POSITIVE_INFINITY;
    this.#weigh = options.weigh ?? (() => 0);
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The total weight kept. */
  get weight(): number {
    return this.#weight;
  }

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  /** The value, now the most recently used; undefined when absent. */
  get(key: K): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    // Map keeps insertion order: re-inserting makes it the newest.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V): void {
    this.delete(key);
    const weight = this.#weigh(value);
    if (weight > this.#maxWeight || this.#maxEntries <= 0) return;
    this.#entries.set(key, { value, weight });
    this.#weight += weight;
    for (const [oldest, entry] of this.#entries) {
      if (this.#entries.size <= this.#maxEntries && this.#weight <= this.#maxWeight) break;
      this.#entries.delete(oldest);
      this.#weight -= entry.weight;
    }
  }

  delete(key: K): boolean {
    const entry = this.#entries.get(key);
    if (!entry) return false;
    this.#entries.delete(key);
    this.#weight -= entry.weight;
    return true;
  }

  clear(): void {
    this.#entries.clear();
    this.#weight = 0;
  }
}

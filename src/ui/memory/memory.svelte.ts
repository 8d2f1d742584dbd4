import type { MetonaMemoryItem } from '../../ir';

/** The stored memories, as the memory list shows them. */
class MemoryState {
  #items = $state<MetonaMemoryItem[]>([]);
  #loaded = $state(false);

  get items(): MetonaMemoryItem[] {
    return this.#items;
  }

  get loaded(): boolean {
    return this.#loaded;
  }

  set(items: MetonaMemoryItem[]): void {
    this.#items = items;
    this.#loaded = true;
  }

  remove(id: string): void {
    this.#items = this.#items.filter((item) => item.id !== id);
  }
}

export const memories = new MemoryState();

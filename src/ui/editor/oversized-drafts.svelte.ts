import type { TabDraft } from './drafts';

/** A draft too long to become a note, left by a tab that is gone: only the user can decide what becomes of it. */
export interface OversizedDraft {
  draft: TabDraft;
  /** The draft's body length and the most a note holds, in characters (from the core's refusal). */
  length: number;
  max: number;
}

/** Such drafts found at start-up, asked about one at a time. */
export class OversizedDraftsState {
  #items = $state.raw<OversizedDraft[]>([]);

  get current(): OversizedDraft | null {
    return this.#items[0] ?? null;
  }

  add(items: readonly OversizedDraft[]): void {
    const known = (item: OversizedDraft) =>
      this.#items.some(
        (held) => held.draft.tab_id === item.draft.tab_id && held.draft.note_id === item.draft.note_id,
      );
    this.#items = [...this.#items, ...items.filter((item) => !known(item))];
  }

  /** The current one is dealt with (or left for the next start). */
  next(): void {
    this.#items = this.#items.slice(1);
  }
}

export const oversizedDrafts = new OversizedDraftsState();

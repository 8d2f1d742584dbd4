/**
 * How a note is shown: both (the editor above or beside the preview, as ever), the editor
 * alone or the rendered note alone (a phone reading, a projector).
 */
export type NoteView = 'split' | 'edit' | 'read';

export const NOTE_VIEWS: readonly NoteView[] = ['edit', 'split', 'read'];

// The key keeps its first name (the choice began as a phone-only one) so nobody loses their choice.
const KEY = 'notesagent.narrow-note-view';

/** A stored value from an older or foreign version falls back to both panes, the view before the choice existed. */
export function parseNoteView(value: string | null | undefined): NoteView {
  return NOTE_VIEWS.find((view) => view === value) ?? 'split';
}

function browserStore(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    // Storage blocked (privacy settings): the choice then lasts until the page is left.
    return null;
  }
}

function readStored(store: () => Storage | null): string | null {
  try {
    return store()?.getItem(KEY) ?? null;
  } catch {
    return null;
  }
}

/**
 * The view chosen for notes (any width). It belongs to the device (a phone reads,
 * a laptop edits), so it is kept in this browser, not with the notes, and it stays as
 * one note after another is opened.
 */
export class NoteViewState {
  readonly #store: () => Storage | null;
  #view: NoteView;

  constructor(store: () => Storage | null = browserStore) {
    this.#store = store;
    this.#view = $state(parseNoteView(readStored(store)));
  }

  get view(): NoteView {
    return this.#view;
  }

  choose(view: NoteView): void {
    this.#view = view;
    try {
      this.#store()?.setItem(KEY, view);
    } catch {
      // A full or blocked storage only means the choice is not there after a reload.
    }
  }
}

export const noteView = new NoteViewState();

import type { NoteDto } from '../../contracts/notes';
import type { SaveState } from './autosaver';
import { contentOf, formatTags, normalizeFolder, parseTags, type NoteContent } from './note-fields';

/** A block the preview should scroll to and flash once (a search result was opened). */
export interface RevealRequest {
  noteId: string;
  blockId: string;
  /** 0-based start line of the block in the note body. */
  line: number;
  /** Tells two requests for the same block apart. */
  token: number;
}

/** The open note: the fields as typed, the stored copy they started from, and the save status. */
export class EditorState {
  #note = $state.raw<NoteDto | null>(null);
  #title = $state('');
  #folder = $state('');
  #tagsText = $state('');
  #body = $state('');
  #status = $state<SaveState>('saved');
  #conflict = $state(false);
  #titleFocusPending = $state(false);
  #reveal = $state.raw<RevealRequest | null>(null);
  #revealCounter = 0;

  /** The fields as they would be saved (folder and tags normalised). */
  readonly content: NoteContent = $derived({
    title: this.#title,
    folder: normalizeFolder(this.#folder),
    tags: parseTags(this.#tagsText),
    body: this.#body,
  });
  readonly readOnly: boolean = $derived(this.#note !== null && this.#note.deleted_at !== null);

  get note(): NoteDto | null {
    return this.#note;
  }
  get noteId(): string | null {
    return this.#note?.note_id ?? null;
  }
  get title(): string {
    return this.#title;
  }
  get folder(): string {
    return this.#folder;
  }
  get tagsText(): string {
    return this.#tagsText;
  }
  get body(): string {
    return this.#body;
  }
  get status(): SaveState {
    return this.#status;
  }
  get conflict(): boolean {
    return this.#conflict;
  }
  /** The block to reveal in the preview, when it belongs to the open note. */
  get reveal(): RevealRequest | null {
    return this.#reveal !== null && this.#reveal.noteId === this.noteId ? this.#reveal : null;
  }
  /** The title field should take focus once it is shown (a new note). */
  get titleFocusPending(): boolean {
    return this.#titleFocusPending;
  }

  /** Shows `note`, or `content` typed on top of it (a recovered draft). */
  open(note: NoteDto, content: NoteContent = contentOf(note)): void {
    this.#note = note;
    this.#title = content.title;
    this.#folder = content.folder;
    this.#tagsText = formatTags(content.tags);
    this.#body = content.body;
    this.#status = 'saved';
    this.#conflict = false;
  }

  /** A save landed (or the stored copy was re-read): the fields stay as typed. */
  setStoredNote(note: NoteDto): void {
    if (note.note_id === this.noteId) this.#note = note;
  }

  setTitle(value: string): void {
    this.#title = value;
  }
  setFolder(value: string): void {
    this.#folder = value;
  }
  setTagsText(value: string): void {
    this.#tagsText = value;
  }
  setBody(value: string): void {
    this.#body = value;
  }
  setStatus(status: SaveState): void {
    this.#status = status;
  }
  setConflict(conflict: boolean): void {
    this.#conflict = conflict;
  }
  requestTitleFocus(): void {
    this.#titleFocusPending = true;
  }
  titleFocused(): void {
    this.#titleFocusPending = false;
  }
  requestReveal(noteId: string, blockId: string, line: number): void {
    this.#revealCounter += 1;
    this.#reveal = { noteId, blockId, line, token: this.#revealCounter };
  }
  revealDone(token: number): void {
    if (this.#reveal?.token === token) this.#reveal = null;
  }

  close(): void {
    this.#note = null;
    this.#title = '';
    this.#folder = '';
    this.#tagsText = '';
    this.#body = '';
    this.#status = 'saved';
    this.#conflict = false;
  }

  reset(): void {
    this.close();
    this.#titleFocusPending = false;
    this.#reveal = null;
  }
}

export const editor = new EditorState();

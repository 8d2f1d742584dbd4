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

/** A field text typed during a note switch can go to. */
export type HeldField = 'title' | 'body';

/** Text typed while a switch was under way, for the note that is opened. */
export interface HeldInput {
  /** Where the typing starts in the new note (the title for a new note). */
  field: HeldField;
  text: string;
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
  /** The history entry keeping this tab's text after it lost a save to another tab. */
  #conflictVersionId = $state<string | null>(null);
  /** A history entry to show (the conflict notice's "Show in history"). */
  #historyRequest = $state<string | null>(null);
  #titleFocusPending = $state(false);
  #reveal = $state.raw<RevealRequest | null>(null);
  #revealCounter = 0;
  #switching = $state(false);
  #switchField = $state<HeldField | null>(null);
  #held: HeldInput | null = null;
  /**
   * Held text of new notes asked for before the last one (Alt+N pressed again while a new note
   * was being made), in order: the first is for the note being made now.
   */
  #earlierHeld: (HeldInput | null)[] = [];
  /** The held text of the new note just shown while a later one is still being made. */
  #shownHeld: HeldInput | null = null;
  /** The field the last held text was typed in. */
  #heldFrom: HeldField | null = null;
  #heldVersion = $state(0);
  #carriedFocus: HeldField | null = null;
  /** Editors that hand typed text over after a pause (the large-note editor); not state, only called. */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- a registry of callbacks, read by no template or effect
  readonly #inputFlushers = new Set<() => void>();

  /**
   * The tags the note was shown with, and their text in the field: while the field still reads
   * so, they are the note's tags as stored, not the field's text parsed again, so opening and
   * saving a note never rewrites a tag its field cannot spell (`say "hi"`, `#x`, `Work` and `work`).
   */
  #shownTags = $state.raw<readonly string[]>([]);
  #shownTagsText = $state('');

  /** The fields as they would be saved (folder and tags normalised). */
  readonly content: NoteContent = $derived({
    title: this.#title,
    folder: normalizeFolder(this.#folder),
    tags: this.#tagsText === this.#shownTagsText ? [...this.#shownTags] : parseTags(this.#tagsText),
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
  get conflictVersionId(): string | null {
    return this.#conflictVersionId;
  }
  get historyRequest(): string | null {
    return this.#historyRequest;
  }
  /** The block to reveal in the preview, when it belongs to the open note. */
  get reveal(): RevealRequest | null {
    return this.#reveal !== null && this.#reveal.noteId === this.noteId ? this.#reveal : null;
  }
  /**
   * Another note was asked for and is not on screen yet: the note shown takes
   * no more edits, and what is typed is held for the note being opened.
   */
  get switching(): boolean {
    return this.#switching;
  }
  /** A new note was asked for (Alt+N, New note) and is not on screen yet: typing goes to its title. */
  get switchingToNewNote(): boolean {
    return this.#switching && this.#switchField === 'title';
  }
  /** Changes whenever held input arrives, for effects that deliver it. */
  get heldVersion(): number {
    return this.#heldVersion;
  }
  get hasHeld(): boolean {
    return this.#held !== null;
  }
  /** Held text is there for the note on screen: the switch is over, or later new notes are still being made. */
  get heldReady(): boolean {
    return this.#shownHeld !== null || (!this.#switching && this.#held !== null);
  }
  /**
   * Another new note was asked for while one is being made: what was typed so far is the title
   * of the note being made, what is typed from now on the next one's.
   */
  holdForNextNewNote(): void {
    this.#earlierHeld.push(this.#held);
    this.#held = null;
    this.#heldFrom = null;
    this.#heldVersion += 1;
  }
  /** The title field should take focus once it is shown (a new note). */
  get titleFocusPending(): boolean {
    return this.#titleFocusPending;
  }

  /**
   * An editor that hands its text over lazily registers how to hand it over
   * now; returns the unregistration.
   */
  onFlushInput(flush: () => void): () => void {
    this.#inputFlushers.add(flush);
    return () => this.#inputFlushers.delete(flush);
  }
  /** Whatever was typed and not handed over yet reaches the fields now. */
  flushInput(): void {
    for (const flush of this.#inputFlushers) flush();
  }

  /** A switch starts; `field` is where held typing lands in the new note (default: where it was typed). */
  beginSwitch(field: HeldField | null = null): void {
    // Text typed into the note being left is its own, and is saved with it.
    this.flushInput();
    this.#switching = true;
    this.#switchField = field;
  }
  /** The switch ended without a new note (failed or superseded by staying): held text stays for this one. */
  endSwitch(): void {
    this.#switching = false;
    this.#switchField = null;
  }
  hold(field: HeldField, text: string): void {
    if (text === '') return;
    if (!this.#held) {
      this.#held = { field: this.#switchField ?? field, text };
    } else {
      // Typed into the title, then into the body (Tab, a click): the new note's title ends
      // there, as an Enter would end it. Typing on in the field it began in (Alt+N with the
      // focus in the old body) is all title.
      const movedToBody =
        field === 'body' &&
        this.#heldFrom === 'title' &&
        this.#held.field === 'title' &&
        !this.#held.text.includes('\n');
      this.#held = { field: this.#held.field, text: this.#held.text + (movedToBody ? '\n' : '') + text };
    }
    this.#heldFrom = field;
    this.#heldVersion += 1;
  }
  /** Backspace during a switch takes back held text (the note on screen takes no edits). */
  unhold(): void {
    if (!this.#held) return;
    const text = Array.from(this.#held.text).slice(0, -1).join('');
    this.#held = text ? { ...this.#held, text } : null;
    this.#heldVersion += 1;
  }
  /** The field of the editor that has the focus (null: none), so a replaced editor's focus carries over. */
  get focusedField(): HeldField | null {
    return this.#carriedFocus;
  }
  setFocusedField(field: HeldField | null): void {
    this.#carriedFocus = field;
  }
  takeHeld(): HeldInput | null {
    if (this.#shownHeld !== null) {
      const shown = this.#shownHeld;
      this.#shownHeld = null;
      return shown;
    }
    const held = this.#held;
    this.#held = null;
    this.#heldFrom = null;
    return held;
  }

  /** Shows `note`, or `content` typed on top of it (a recovered draft). */
  open(note: NoteDto, content: NoteContent = contentOf(note)): void {
    this.endSwitch();
    this.#shownHeld = this.#earlierHeld.shift() ?? null;
    this.#note = note;
    this.#title = content.title;
    this.#folder = content.folder;
    this.#showTags(content.tags);
    this.#body = content.body;
    this.#status = 'saved';
    this.#conflict = false;
    this.#conflictVersionId = null;
  }

  /**
   * The stored note changed under an editor holding no unsaved text (a
   * background write): the fields show it in place, status and switch left as
   * they are.
   */
  showStored(note: NoteDto): void {
    if (note.note_id !== this.noteId) return;
    const content = contentOf(note);
    this.#note = note;
    this.#title = content.title;
    this.#folder = content.folder;
    this.#showTags(content.tags);
    this.#body = content.body;
  }

  #showTags(tags: readonly string[]): void {
    this.#shownTags = tags;
    this.#shownTagsText = formatTags(tags);
    this.#tagsText = this.#shownTagsText;
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
    if (!conflict) this.#conflictVersionId = null;
  }
  setConflictVersion(versionId: string): void {
    if (this.#conflict) this.#conflictVersionId = versionId;
  }
  requestHistory(versionId: string): void {
    this.#historyRequest = versionId;
  }
  historyShown(): void {
    this.#historyRequest = null;
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
    this.endSwitch();
    this.#held = null;
    this.#note = null;
    this.#title = '';
    this.#folder = '';
    this.#showTags([]);
    this.#body = '';
    this.#status = 'saved';
    this.#conflict = false;
    this.#conflictVersionId = null;
  }

  reset(): void {
    this.close();
    this.#titleFocusPending = false;
    this.#reveal = null;
  }
}

export const editor = new EditorState();

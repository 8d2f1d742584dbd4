import type { NoteDto } from '../../contracts/notes';
import type { SearchHitDto } from '../../contracts/search';
import { core } from '../api/core-client';
import { confirmation } from '../dialogs/confirm.svelte';
import { errorCodeOf } from '../error-message';
import { reportError } from '../errors';
import { errorText, t } from '../i18n';
import { layout } from '../layout.svelte';
import { currentRoute, navigate, replaceMissingNote } from '../navigation';
import { noteAfterRemoval, type AfterRemoval } from '../notes/next-note-after-trash';
import { notes } from '../notes/notes.svelte';
import { notesRoute } from '../router';
import { search } from '../search/search.svelte';
import { refreshAll, scheduleRefresh } from '../notes/notes.service';
import { settings } from '../settings/settings.svelte';
import { openSettings } from '../settings/settings-nav.svelte';
import { toasts } from '../toasts/toasts.svelte';
import { Autosaver } from './autosaver';
import { downloadBytes } from '../jobs/download';
import { DraftStore, resolveDraft, tabIdFrom, type NoteDraft } from './drafts';
import { editor } from './editor.svelte';
import { editorAnnouncement } from './editor-announcement.svelte';
import type { JournalFields } from './edit-journal';
import type { TextChange } from './text-change';
import { contentOf, sameContent, type NoteContent } from './note-fields';
import { followStoredNote } from '../../core/cross-tab-changes';
import { holdNoteLock, isNoteLockedElsewhere } from './note-locks';
import { oversizedDrafts, type OversizedDraft } from './oversized-drafts.svelte';

const LAST_NOTE_KEY = 'notesagent.last-note';

function browserStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

function tabStorage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

const drafts = new DraftStore({
  backend: core.drafts,
  tabId: tabIdFrom(tabStorage(), () => crypto.randomUUID().replace(/-/g, '')),
  local: browserStorage(),
  onWriteFailed: (noteId, error) => draftWriteFailed(noteId, error),
  onWritten: (noteId) => draftIsSafe(noteId),
});

/** Tab hidden: write pending drafts now. */
export function flushDrafts(): Promise<void> {
  return drafts.flush();
}

/** Page going away: what is not written yet goes to localStorage synchronously; back from the cache, it is taken back. */
export function spillDrafts(persisted: boolean | null = null): void {
  if (persisted === true) drafts.unspill();
  else drafts.spill();
}

/**
 * The large-note editor changed the note's text by `changes`: journaled, so a
 * killed tab loses no more of it than of a small note's. True when the editor
 * should hand its text over now (the journal grew heavy).
 */
export function journalEdit(
  noteId: string,
  changes: readonly TextChange[],
  before: (() => string) | null,
): boolean {
  return drafts.edit(noteId, changes, before, () => journalFields(noteId));
}

/** The open note's other fields as typed, and the version the text is typed on: what its draft would carry. */
function journalFields(noteId: string): JournalFields | null {
  const note = editor.note;
  if (!note || note.note_id !== noteId) return null;
  const { title, folder, tags } = editor.content;
  return { title, folder, tags: [...tags], base_version: typedOnVersion(note) };
}

/** The stored version the editor's text is typed on: the open session's, else the note's as shown. */
function typedOnVersion(note: NoteDto): number {
  return session?.noteId === note.note_id ? session.version : note.version;
}

/** The large-note editor is handing `text` over (a save or draft may carry it from here). */
export function journalMark(noteId: string, text: string): void {
  drafts.mark(noteId, text);
}

/** This tab's id, as its drafts are keyed (tests, diagnostics). */
export function draftTabId(): string {
  return drafts.tabId;
}

/** One open, editable note: its autosaver and what the core last stored. */
interface EditSession {
  noteId: string;
  autosaver: Autosaver<NoteContent>;
  /** Version of the stored note the next save builds on (`expected_version`). */
  version: number;
  /** The content last stored, to tell edits from no-ops. */
  saved: NoteContent;
  /** In a conflict: the version this tab's text was typed on (older than the stored note). */
  conflictBase: number | null;
  releaseLock: () => void;
}

let session: EditSession | null = null;
let openRequest = 0;
let creating = false;
/** New notes asked for (Alt+N) while one was being made: each follows once the one before is shown. */
let newNotesAsked = 0;

function pickContent(content: NoteContent): NoteContent {
  return { title: content.title, folder: content.folder, tags: [...content.tags], body: content.body };
}

function draftOf(noteId: string, content: NoteContent, baseVersion: number): NoteDraft {
  return {
    note_id: noteId,
    ...pickContent(content),
    base_version: baseVersion,
    saved_at: new Date().toISOString(),
  };
}

function rememberLastNote(noteId: string | null): void {
  const storage = browserStorage();
  try {
    if (noteId === null) storage?.removeItem(LAST_NOTE_KEY);
    else storage?.setItem(LAST_NOTE_KEY, noteId);
  } catch {
    // Only a convenience; ignore a full or blocked storage.
  }
}

function readLastNote(): string | null {
  try {
    return browserStorage()?.getItem(LAST_NOTE_KEY) ?? null;
  } catch {
    return null;
  }
}

function endSession(): void {
  const ending = session;
  if (!ending) return;
  session = null;
  // Whatever reached the note after the switch's flush is still saved to it
  // (or stays in its draft); only then is the note free for other tabs.
  void ending.autosaver.flush().finally(() => {
    ending.autosaver.dispose();
    ending.releaseLock();
  });
}

async function saveContent(current: EditSession, content: NoteContent): Promise<void> {
  drafts.checkpoint(current.noteId, content.body);
  const stored = await core.notes.update({
    note_id: current.noteId,
    ...content,
    expected_version: current.version,
  });
  const sidebarChanged =
    content.folder !== current.saved.folder ||
    content.tags.length !== current.saved.tags.length ||
    content.tags.some((tag, index) => tag !== current.saved.tags[index]);
  current.version = stored.version;
  current.saved = content;
  quotaToastShown = false;
  // Saved: what the storage-full notices said is over, so they go (they stay until dismissed otherwise).
  if (quotaToast !== null) {
    toasts.dismiss(quotaToast);
    quotaToast = null;
  }
  draftIsSafe(current.noteId);
  if (tooLongToast !== null) {
    toasts.dismiss(tooLongToast);
    tooLongToast = null;
  }
  const visible = session === current && editor.noteId === current.noteId;
  if (visible) editor.setStoredNote(stored);
  // The draft goes only when the editor holds exactly what was stored; text
  // typed during the save stays in the draft, now based on the new version.
  if (visible && !sameContent(editor.content, content)) {
    drafts.saved(current.noteId, content.body);
    drafts.write(draftOf(current.noteId, editor.content, stored.version));
  } else {
    void drafts.remove(current.noteId, content.body);
  }
  scheduleRefresh({ sidebar: sidebarChanged });
}

/** Storage full: one toast per failing streak (Ctrl+S always shows it), with the way to free space. */
let quotaToastShown = false;
/** The storage-full notice on screen, dismissed once a save lands. */
let quotaToast: number | null = null;
let explicitSave = false;
/** Notes whose draft could only be kept in memory, already told to the user: the toast saying so. */
const draftsInMemoryTold = new Map<string, number>();

/** The note's text is stored (as the note or its draft): the notice that it lives only in this tab goes. */
function draftIsSafe(noteId: string): void {
  const told = draftsInMemoryTold.get(noteId);
  if (told === undefined) return;
  draftsInMemoryTold.delete(noteId);
  // One toast says it for every such note (same words): it stays while another note's text is still only here.
  if (![...draftsInMemoryTold.values()].includes(told)) toasts.dismiss(told);
}

function showStorageFull(noteId: string): void {
  if (quotaToastShown && !explicitSave) return;
  quotaToastShown = true;
  const message = errorText('STORAGE_QUOTA_EXCEEDED', '');
  const text = drafts.inMemoryOnly(noteId) ? `${message} ${t('storageFull.draftInMemory')}` : message;
  // Another write's plain notice with the same words would swallow this one, and with it the way to free space.
  const plain = toasts.items.find((toast) => toast.message === text && toast.action === null);
  if (plain) toasts.dismiss(plain.id);
  quotaToast = toasts.show(text, {
    kind: 'error',
    code: 'STORAGE_QUOTA_EXCEEDED',
    timeoutMs: 0,
    action: { label: t('storageFull.openStorage'), run: () => openSettings('storage') },
  });
}

/** The draft could not be written (storage is full too): say once that the text lives only in this tab. */
function draftWriteFailed(noteId: string, error: unknown): void {
  console.warn('NotesAgent: could not write the draft', error);
  if (draftsInMemoryTold.has(noteId)) return;
  const code = errorCodeOf(error);
  const told = toasts.show(t('storageFull.draftInMemory'), {
    kind: 'error',
    timeoutMs: 0,
    ...(code === null ? {} : { code }),
  });
  draftsInMemoryTold.set(noteId, told);
}

/** The body is over the API's cap: its size and the cap, from the error's details. */
function bodyTooLong(error: unknown): { length: number; max: number } | null {
  if (errorCodeOf(error) !== 'VALIDATION_FAILED') return null;
  const details = (error as { details?: Record<string, unknown> }).details;
  if (
    details?.field !== 'body' ||
    typeof details.length !== 'number' ||
    typeof details.max_length !== 'number'
  )
    return null;
  return { length: details.length, max: details.max_length };
}

/** The too-long notice on screen: replaced as the size changes, gone once a save lands. */
let tooLongToast: number | null = null;

function showBodyTooLong(size: { length: number; max: number }): void {
  if (tooLongToast !== null) toasts.dismiss(tooLongToast);
  const mib = (characters: number) => (characters / (1024 * 1024)).toFixed(1);
  tooLongToast = toasts.show(t('editor.bodyTooLong', { size: mib(size.length), limit: mib(size.max) }), {
    kind: 'error',
    code: 'VALIDATION_FAILED',
    timeoutMs: 0,
    // A text too long for a note can be too long for a draft as well (a note from before the
    // limits): a file is the one place it can always go.
    action: { label: t('oversizedDraft.save'), run: saveEditorTextAsFile },
  });
}

/** The note's text on screen, refused as too long, downloaded as a Markdown file. */
function saveEditorTextAsFile(): void {
  editor.flushInput();
  const file = draftFileName(editor.title);
  downloadBytes(new TextEncoder().encode(editor.body), file, 'text/markdown;charset=utf-8');
  toasts.show(t('oversizedDraft.saved', { file }), { kind: 'success' });
}

function onSaveError(current: EditSession, error: unknown): void {
  const tooLong = bodyTooLong(error);
  if (tooLong) {
    // Nothing was stored: the text stays pending here and in the draft; a shorter text saves on the next edit.
    if (session === current) showBodyTooLong(tooLong);
    return;
  }
  if (errorCodeOf(error) === 'STORAGE_QUOTA_EXCEEDED') {
    // The text stays pending in the autosaver and in the draft; the next edit or Ctrl+S retries.
    showStorageFull(current.noteId);
    return;
  }
  if (errorCodeOf(error) === 'NOTE_VERSION_CONFLICT') {
    current.autosaver.pause();
    current.conflictBase = current.version;
    if (session === current) {
      editor.setConflict(true);
      editor.setStatus('error');
    }
    void keepAfterConflict(current);
    return;
  }
  reportError(error);
}

/**
 * This tab's text lost a save to a newer write: keep it in the note's history
 * (a `conflict` version), so it stays reachable whatever the user chooses.
 * Null when there was nothing to keep (the note holds this text already).
 */
async function keepLosingText(current: EditSession): Promise<string | null> {
  const content = editor.content;
  try {
    const kept = await core.history.keepConflict({
      note_id: current.noteId,
      title: content.title,
      body: content.body,
      base_version: current.conflictBase ?? current.version,
    });
    return kept.version_id;
  } catch (error) {
    if (errorCodeOf(error) === 'STATE_CONFLICT') return null;
    throw error;
  }
}

/** Tells the user their text lost to another tab's save, and where it is kept. */
async function keepAfterConflict(current: EditSession): Promise<void> {
  let versionId: string | null = null;
  try {
    versionId = await keepLosingText(current);
  } catch (error) {
    // Not kept in the history (storage full, say): it is still on screen and in the draft.
    console.warn('NotesAgent: could not keep the conflicting text in the history', error);
  }
  if (session !== current) return;
  if (versionId === null) {
    toasts.show(t('editor.conflictToast'), { kind: 'error', code: 'NOTE_VERSION_CONFLICT' });
    return;
  }
  const kept = versionId;
  editor.setConflictVersion(kept);
  toasts.show(t('editor.conflictKept'), {
    kind: 'error',
    code: 'NOTE_VERSION_CONFLICT',
    timeoutMs: 0,
    action: { label: t('editor.conflictShow'), run: () => editor.requestHistory(kept) },
  });
}

function startSession(
  note: NoteDto,
  options: { content?: NoteContent; conflict?: boolean; baseVersion?: number } = {},
): void {
  endSession();
  editor.open(note, options.content);
  rememberLastNote(note.note_id);
  if (note.deleted_at !== null) return;
  const current: EditSession = {
    noteId: note.note_id,
    version: note.version,
    saved: contentOf(note),
    conflictBase: options.conflict ? (options.baseVersion ?? null) : null,
    releaseLock: holdNoteLock(note.note_id),
    autosaver: new Autosaver<NoteContent>({
      delayMs: () => settings.value.autosave_delay_ms,
      save: (content) => saveContent(current, content),
      onStateChange: (state) => {
        if (session === current) editor.setStatus(state);
      },
      onError: (error) => onSaveError(current, error),
    }),
  };
  session = current;
  if (options.conflict) {
    current.autosaver.pause();
    current.autosaver.change(editor.content);
    editor.setConflict(true);
    editor.setStatus('error');
    // A draft typed on an older version: its text joins the history like a lost save's.
    void keepAfterConflict(current);
  } else if (!sameContent(editor.content, current.saved)) {
    current.autosaver.change(editor.content);
  }
}

/** Opens a loaded note, bringing back a draft left by a failed save or a crash. */
async function showNote(note: NoteDto): Promise<void> {
  // Known without a round trip to the core in the common case: a switch stays as short as it can be.
  const known = drafts.known(note.note_id);
  const draft = known === undefined ? await drafts.read(note.note_id) : known;
  if (!draft || note.deleted_at !== null || (await isNoteLockedElsewhere(note.note_id))) {
    startSession(note);
    return;
  }
  const resolution = resolveDraft(draft, note);
  if (resolution === 'discard') {
    void drafts.remove(note.note_id);
    startSession(note);
  } else {
    startSession(note, {
      content: pickContent(draft),
      conflict: resolution === 'copy',
      baseVersion: draft.base_version,
    });
  }
}

/** Saves what is pending; whatever fails stays in the local draft. */
async function leaveCurrentNote(): Promise<void> {
  await session?.autosaver.flush();
}

/** `typedFrom`: the body before a textarea's change, so the draft can journal just that change. */
function afterEdit(typedFrom?: string): void {
  const note = editor.note;
  if (!note || editor.readOnly) return;
  const current = session?.noteId === note.note_id ? session : null;
  const content = editor.content;
  if (current && !current.autosaver.saving && sameContent(content, current.saved)) {
    // Typed back to the stored text: a textarea's journal never saw this change, so it goes with the draft.
    void drafts.remove(note.note_id, typedFrom === undefined ? content.body : undefined);
    current.autosaver.markClean();
    return;
  }
  // Recorded at once, written after a short pause (spilled synchronously if the page goes first).
  const draft = draftOf(note.note_id, content, typedOnVersion(note));
  if (typedFrom === undefined) drafts.write(draft);
  else drafts.typed(typedFrom, draft);
  current?.autosaver.change(content);
}

export function editTitle(value: string, noteId: string | null = editor.noteId): void {
  // An editor is bound to its note: input from one that is no longer shown is dropped.
  if (noteId !== editor.noteId) return;
  editor.setTitle(value);
  afterEdit();
}

export function editFolder(value: string, noteId: string | null = editor.noteId): void {
  // An editor is bound to its note: input from one that is no longer shown is dropped.
  if (noteId !== editor.noteId) return;
  editor.setFolder(value);
  afterEdit();
}

export function editTags(value: string, noteId: string | null = editor.noteId): void {
  // An editor is bound to its note: input from one that is no longer shown is dropped.
  if (noteId !== editor.noteId) return;
  editor.setTagsText(value);
  afterEdit();
}

export function editBody(value: string, noteId: string | null = editor.noteId): void {
  // An editor is bound to its note: input from one that is no longer shown is dropped.
  if (noteId !== editor.noteId) return;
  editor.setBody(value);
  afterEdit();
}

/**
 * The textarea's body changed (a key, a paste, an inserted link). Unlike
 * `editBody` (the large-note editor, which journals its own change lists),
 * the draft store is told the text before as well: in a long note it then
 * records the one span that changed, not a copy of the whole text per key.
 */
export function typeBody(value: string, noteId: string | null = editor.noteId): void {
  // An editor is bound to its note: input from one that is no longer shown is dropped.
  if (noteId !== editor.noteId) return;
  const before = editor.body;
  editor.setBody(value);
  afterEdit(before);
}

/** Ctrl/⌘+S, blur, tab hidden: save now. */
export async function saveNow(): Promise<void> {
  const current = session;
  if (!current) return;
  if (current.autosaver.paused) {
    if (editor.conflict)
      toasts.show(t('editor.conflictToast'), { kind: 'error', code: 'NOTE_VERSION_CONFLICT' });
    return;
  }
  explicitSave = true;
  try {
    await current.autosaver.flush();
  } finally {
    explicitSave = false;
  }
}

/**
 * Ctrl+S: the note is saved now, and a screen reader hears so once ("Saved"). Autosaves stay
 * silent; a failed save is said by the save status itself.
 */
export async function saveAndConfirm(): Promise<void> {
  const current = session;
  if (!current) return;
  await saveNow();
  if (session !== current || current.autosaver.paused || editor.status !== 'saved') return;
  await editorAnnouncement.say(t('editor.savedAnnouncement'));
}

export async function openNote(noteId: string): Promise<void> {
  layout.showPane('editor');
  if (editor.noteId === noteId) {
    const request = ++openRequest;
    editor.endSwitch();
    await reloadIfChangedElsewhere(noteId, request);
    return;
  }
  const request = ++openRequest;
  // At once, before anything is awaited: from here on typing belongs to the note asked for.
  editor.beginSwitch();
  await leaveCurrentNote();
  if (request !== openRequest) return;
  try {
    const note = await core.notes.get(noteId);
    if (request !== openRequest) return;
    await showNote(note);
  } catch (error) {
    if (request !== openRequest) return;
    editor.endSwitch();
    reportError(error);
    if (errorCodeOf(error) === 'NOTE_NOT_FOUND') {
      void refreshAll();
      replaceMissingNote(noteId, editor.noteId);
    }
  }
}

/** Opens a search hit's note, and has the preview scroll to the block and flash it. */
export async function openResult(hit: SearchHitDto): Promise<void> {
  editor.requestReveal(hit.note_id, hit.block_id, hit.start_line);
  await openNote(hit.note_id);
}

/**
 * The agent, an import or another tab may have changed the open note. With no
 * unsaved edits here, show the stored version; with edits, keep them (the next
 * save reports the version conflict instead of overwriting either side).
 */
async function reloadIfChangedElsewhere(noteId: string, request: number): Promise<void> {
  const current = session;
  if (!current || current.noteId !== noteId || current.autosaver.saving) return;
  if (!sameContent(editor.content, current.saved)) return;
  try {
    const note = await core.notes.get(noteId);
    if (request !== openRequest || session !== current || note.version === current.version) return;
    if (!sameContent(editor.content, current.saved)) return;
    startSession(note);
  } catch (error) {
    if (request === openRequest) reportError(error);
  }
}

/**
 * Something in the background (an agent run, an import, another tab) wrote notes while
 * this one is open. Unlike `refreshOpenNote` this never starts an open of its own, so it
 * cannot overtake one the user started: it gives up when a switch or any open began
 * meanwhile. A clean editor shows the stored note in place (no save, no history entry);
 * one with unsaved text keeps it and goes into the conflict flow at once, which keeps
 * that text in the note's history, so neither text is lost (`followStoredNote`).
 */
export async function showBackgroundWrite(): Promise<void> {
  const current = session;
  if (!current && editor.readOnly) return followRestoredElsewhere();
  if (!current || editor.switching || current.conflictBase !== null) return;
  const request = openRequest;
  let note: NoteDto;
  try {
    note = await core.notes.get(current.noteId);
  } catch {
    // Gone or unreadable: the note list's refresh tells the user; the editor keeps what it shows.
    return;
  }
  if (request !== openRequest || session !== current || editor.switching || editor.noteId !== note.note_id)
    return;
  // A large note's editor hands typed text over lazily: it counts as unsaved too.
  editor.flushInput();
  const follow = followStoredNote({
    shownVersion: current.version,
    storedVersion: note.version,
    trashed: note.deleted_at !== null,
    unsaved: current.autosaver.busy || !sameContent(editor.content, current.saved),
    saving: current.autosaver.saving,
    inConflict: current.conflictBase !== null,
  });
  if (follow === 'show' && note.deleted_at !== null) {
    // Trashed elsewhere: shown as in the trash (read-only, with Restore), as opening it would.
    openRequest += 1;
    startSession(note);
  } else if (follow === 'show') {
    current.version = note.version;
    current.saved = contentOf(note);
    current.autosaver.markClean();
    editor.showStored(note);
  } else if (follow === 'conflict') {
    current.autosaver.pause();
    current.conflictBase = current.version;
    editor.setConflict(true);
    editor.setStatus('error');
    void keepAfterConflict(current);
  }
}

/**
 * The note on screen is in the trash (read-only, no edit session) and something wrote it: if
 * another tab restored it, it opens for editing here too, rather than offering a Restore that
 * could only be refused.
 */
async function followRestoredElsewhere(): Promise<void> {
  const noteId = editor.noteId;
  if (noteId === null || editor.switching) return;
  const request = openRequest;
  let note: NoteDto;
  try {
    note = await core.notes.get(noteId);
  } catch {
    return;
  }
  if (request !== openRequest || session !== null || editor.switching || editor.noteId !== noteId) return;
  if (note.deleted_at !== null) return;
  openRequest += 1;
  startSession(note);
}

/** Back in the notebook after the chat or agent view: refresh the open note if it changed. */
export async function refreshOpenNote(): Promise<void> {
  const noteId = editor.noteId;
  if (noteId) await reloadIfChangedElsewhere(noteId, ++openRequest);
}

export function closeNote(): void {
  openRequest += 1;
  endSession();
  editor.close();
  rememberLastNote(null);
  layout.showPane('list');
}

/** Alt+N and the "New note" button: a note in the folder (and tag) being viewed. */
export async function createNote(): Promise<void> {
  if (creating) {
    // Alt+N again before the new note is there: another one follows it, and the keys typed
    // from now on are its title, not the first one's.
    newNotesAsked += 1;
    editor.holdForNextNewNote();
    return;
  }
  creating = true;
  // Typing right after Alt+N goes into the new note's title.
  editor.beginSwitch('title');
  try {
    await leaveCurrentNote();
    if (notes.view === 'trash') notes.setView('notes');
    for (;;) {
      const note = await core.notes.create({
        folder: notes.folder ?? '',
        tags: notes.tag === null ? [] : [notes.tag],
      });
      openRequest += 1;
      startSession(note);
      editor.requestTitleFocus();
      if (newNotesAsked === 0) break;
      newNotesAsked -= 1;
      // Synchronously after showing it: no key lands in this note that was meant for the next.
      editor.beginSwitch('title');
      await leaveCurrentNote();
    }
    layout.setSidebarOpen(false);
    layout.showPane('editor');
    // The new note is on screen: the next Alt+N makes another, even while the list refreshes.
    creating = false;
    await refreshAll();
  } catch (error) {
    newNotesAsked = 0;
    if (editor.switching) editor.endSwitch();
    reportError(error);
  } finally {
    creating = false;
  }
}

/** Conflict, option 1: re-read the stored note and save the user's text over it. */
export async function overwriteWithMine(): Promise<void> {
  const current = session;
  if (!current) return;
  try {
    const latest = await core.notes.get(current.noteId);
    if (session !== current) return;
    if (latest.deleted_at !== null) {
      await saveMineAsCopy();
      return;
    }
    current.version = latest.version;
    current.saved = contentOf(latest);
    current.conflictBase = null;
    editor.setStoredNote(latest);
    editor.setConflict(false);
    current.autosaver.resume();
    current.autosaver.change(editor.content);
    await current.autosaver.flush();
  } catch (error) {
    reportError(error);
  }
}

/**
 * Conflict, option 3: show the note as the other tab saved it. This tab's text
 * is kept in the note's history first (again, if typed on since), then dropped here.
 */
export async function useStoredVersion(): Promise<void> {
  const current = session;
  if (!current) return;
  try {
    await keepLosingText(current);
    const latest = await core.notes.get(current.noteId);
    if (session !== current) return;
    void drafts.remove(current.noteId);
    openRequest += 1;
    startSession(latest);
  } catch (error) {
    reportError(error);
  }
}

/** Conflict, option 2: keep both — the user's text becomes a new note. */
export async function saveMineAsCopy(): Promise<void> {
  const current = session;
  if (!current) return;
  const content = editor.content;
  try {
    const copy = await core.notes.create({
      ...content,
      title: t('editor.copyTitle', { title: content.title || t('list.untitled') }),
    });
    void drafts.remove(current.noteId);
    openRequest += 1;
    startSession(copy);
    await refreshAll();
  } catch (error) {
    reportError(error);
  }
}

/** `open`: the note opens among the notes (the toast's Undo of a move to the trash). */
export async function restoreNote(noteId: string, options: { open?: boolean } = {}): Promise<void> {
  try {
    const restored = await core.notes.restore(noteId);
    if (options.open) {
      notes.setView('notes');
      const request = ++openRequest;
      editor.beginSwitch();
      await leaveCurrentNote();
      if (request === openRequest) await showNote(restored);
    } else {
      if (editor.noteId === noteId) closeNote();
      toasts.show(t('trash.restored'), { kind: 'success' });
    }
    await refreshAll();
  } catch (error) {
    if (editor.switching) editor.endSwitch();
    reportError(error);
  }
}

/**
 * The trashed note's Restore button. The trash stays on screen, as someone restoring several
 * notes expects: the next trashed note takes the restored one's place, and the toast names the
 * note with Open to go to it. Resolves to where the list goes on from (null: nothing restored).
 */
export async function restoreFromTrash(
  note: Pick<NoteDto, 'note_id' | 'title'>,
): Promise<AfterRemoval | null> {
  const after = noteAfterRemoval(notes.items, note.note_id);
  try {
    await core.notes.restore(note.note_id);
  } catch (error) {
    reportError(error);
    return null;
  }
  toasts.show(t('trash.restoredNamed', { title: note.title || t('list.untitled') }), {
    kind: 'success',
    action: { label: t('trash.openRestored'), run: () => openRestored(note.note_id) },
  });
  if (editor.noteId === note.note_id) await showInsteadOf(after);
  await refreshAll();
  return after;
}

/** The toast's Open: the restored note among the notes, with the keyboard in its title as in a new note. */
function openRestored(noteId: string): void {
  editor.requestTitleFocus();
  navigate(notesRoute({ noteId }));
}

/** Phone width (App.svelte's one-pane layout): the list and the note take turns on the screen. */
function onePaneLayout(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(max-width: 640px)').matches;
}

/**
 * The open note left the list: its neighbour opens in its place, as the next message does in a
 * mail client. Where one pane shows at a time (a phone), or there is no neighbour, the note
 * closes and the list shows, so the user sees where they are before choosing the next.
 */
async function showInsteadOf(after: AfterRemoval): Promise<void> {
  if (after.kind !== 'next' || onePaneLayout()) {
    closeNote();
    return;
  }
  // The address names the neighbour in place of the note gone, so Back does not lead to it.
  const route = typeof location === 'undefined' ? null : currentRoute();
  if (route?.view === 'notes' || route?.view === 'trash') {
    navigate({ ...route, noteId: after.noteId }, { replace: true });
  } else {
    // No address bar (the unit tests): the note opens as a route would open it.
    await openNote(after.noteId);
  }
}

/** Resolves to where the list goes on from, or null when the note stayed (not trashed, or not stored yet). */
export function trashCurrentNote(): Promise<AfterRemoval | null> {
  return trashOpenNote((noteId) => core.notes.trash(noteId), t('editor.trashed'));
}

/**
 * "Undo agent change" on a note the agent created: it goes to the trash like a
 * deleted note (same toast, same Undo), through the history service, which
 * refuses once anything changed the note after the agent wrote it.
 */
export function undoAgentCreation(): Promise<AfterRemoval | null> {
  return trashOpenNote((noteId) => core.history.undoAgentCreation(noteId), t('agentNote.creationUndone'));
}

async function trashOpenNote(
  trash: (noteId: string) => Promise<unknown>,
  message: string,
): Promise<AfterRemoval | null> {
  const current = session;
  const note = editor.note;
  if (!current || !note) return null;
  await current.autosaver.flush();
  if (current.autosaver.busy) {
    // The latest text is not stored yet: keep the note where the user can see it.
    if (editor.conflict)
      toasts.show(t('editor.conflictToast'), { kind: 'error', code: 'NOTE_VERSION_CONFLICT' });
    return null;
  }
  // Read before the list refreshes without it. While a search shows, its results stand in for
  // the list: the note closes as before.
  const after: AfterRemoval = search.active
    ? { kind: 'unlisted' }
    : noteAfterRemoval(notes.items, note.note_id);
  try {
    await trash(note.note_id);
    void drafts.remove(note.note_id);
    if (editor.noteId === note.note_id) await showInsteadOf(after);
    toasts.show(message, {
      kind: 'info',
      timeoutMs: 6000,
      action: {
        label: t('editor.undo'),
        undo: true,
        run: () => void restoreNote(note.note_id, { open: true }),
      },
    });
    await refreshAll();
    return after;
  } catch (error) {
    reportError(error);
    return null;
  }
}

export async function purgeNote(note: Pick<NoteDto, 'note_id' | 'title'>): Promise<void> {
  const confirmed = await confirmation.ask({
    title: t('trash.confirmTitle'),
    message: t('trash.confirmMessage', { title: note.title || t('list.untitled') }),
    confirmLabel: t('trash.purge'),
    danger: true,
  });
  if (!confirmed) return;
  try {
    await core.notes.purge(note.note_id);
    void drafts.remove(note.note_id);
    if (editor.noteId === note.note_id) closeNote();
    toasts.show(t('trash.purged'), { kind: 'success' });
    await refreshAll();
  } catch (error) {
    reportError(error);
  }
}

/**
 * At start-up: drafts newer than their stored note are saved over it; drafts
 * that would overwrite someone else's later change (or whose note is gone or
 * trashed) become a new "(recovered)" note. A draft another live tab is still
 * editing is left alone. A draft that cannot be saved stays for the next start.
 */
export async function recoverDrafts(): Promise<void> {
  let recovered = 0;
  const oversized: OversizedDraft[] = [];
  // Drafts spilled at the last unload, or kept in localStorage by older versions, move into the core first.
  await drafts.moveLocalDrafts();
  // Edit journals of large notes (a tab killed while typing) are replayed into their tab's draft.
  await drafts.recoverJournals({
    note: async (noteId) => {
      try {
        return await core.notes.get(noteId);
      } catch (error) {
        if (errorCodeOf(error) === 'NOTE_NOT_FOUND') return null;
        throw error;
      }
    },
    skip: isNoteLockedElsewhere,
  });
  let stored: Awaited<ReturnType<DraftStore['list']>>;
  try {
    stored = await drafts.list();
  } catch (error) {
    reportError(error);
    return;
  }
  for (const draft of stored) {
    if (await isNoteLockedElsewhere(draft.note_id)) continue;
    try {
      let note: NoteDto | null = null;
      try {
        note = await core.notes.get(draft.note_id);
      } catch (error) {
        if (errorCodeOf(error) !== 'NOTE_NOT_FOUND') throw error;
      }
      const content = pickContent(draft);
      const resolution = resolveDraft(draft, note);
      if (resolution === 'restore' && note) {
        await core.notes.update({ note_id: note.note_id, ...content, expected_version: note.version });
        recovered += 1;
      } else if (resolution === 'copy') {
        await core.notes.create({
          ...content,
          title: t('editor.recoveredTitle', { title: content.title || t('list.untitled') }),
        });
        recovered += 1;
      }
      await drafts.removeDraft(draft.tab_id, draft.note_id);
    } catch (error) {
      // Too long for a note: this tab's own shows again when its note is opened; one
      // from a tab that is gone would stay unseen for ever, so the user decides.
      const size = bodyTooLong(error);
      if (size && draft.tab_id !== drafts.tabId)
        oversized.push({ draft, length: size.length, max: size.max });
      if (size) continue;
      reportError(error);
    }
  }
  oversizedDrafts.add(oversized);
  if (recovered > 0) toasts.show(t('editor.draftsRecovered', { count: recovered }), { kind: 'success' });
}

/** Re-opens the note that was open when the app was last closed. */
export async function reopenLastNote(): Promise<void> {
  const noteId = readLastNote();
  if (noteId === null || editor.noteId !== null) return;
  const request = ++openRequest;
  try {
    const note = await core.notes.get(noteId);
    if (request !== openRequest || editor.noteId !== null) return;
    if (note.deleted_at !== null) rememberLastNote(null);
    else await showNote(note);
  } catch (error) {
    rememberLastNote(null);
    if (errorCodeOf(error) !== 'NOTE_NOT_FOUND') reportError(error);
  }
}

/** A file name from a note title: characters file systems refuse become '-'. */
function draftFileName(title: string): string {
  const name = title
    .replace(/[\\/:*?"<>|\t\n\r]/g, '-')
    .trim()
    .slice(0, 100);
  return `${name || t('list.untitled')}.md`;
}

/** The oversized draft asked about is downloaded as a Markdown file, then leaves the store. */
export async function saveOversizedDraftAsFile(): Promise<void> {
  const item = oversizedDrafts.current;
  if (!item) return;
  const file = draftFileName(item.draft.title);
  downloadBytes(new TextEncoder().encode(item.draft.body), file, 'text/markdown;charset=utf-8');
  oversizedDrafts.next();
  await drafts.removeDraft(item.draft.tab_id, item.draft.note_id);
  toasts.show(t('oversizedDraft.saved', { file }), { kind: 'success' });
}

/** The oversized draft asked about is dropped for good. */
export async function discardOversizedDraft(): Promise<void> {
  const item = oversizedDrafts.current;
  if (!item) return;
  oversizedDrafts.next();
  await drafts.removeDraft(item.draft.tab_id, item.draft.note_id);
  toasts.show(t('oversizedDraft.discarded'), { kind: 'info' });
}

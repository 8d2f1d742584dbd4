import { z } from 'zod';
import {
  AppError,
  createNoteSchema,
  listNotesSchema,
  folderPathSchema,
  parseInput,
  renameFolderSchema,
  setPinnedSchema,
  updateNoteSchema,
  type BlockDto,
  type CreateNoteInput,
  type FolderDto,
  type ListNotesInput,
  type NoteDto,
  type NoteSummaryDto,
  type OffsetPage,
  type RenameFolderInput,
  type SetPinnedInput,
  type TagDto,
  type UpdateNoteInput,
} from '../contracts';
import {
  MAX_BODY_LENGTH,
  deleteFolderSchema,
  restoreDeletedFolderSchema,
  type DeleteFolderInput,
  type DeletedFolderDto,
  type RestoreDeletedFolderInput,
} from '../contracts/notes';
import { movedFolder, type NoteMove } from '../core/wikilinks-move';
import type { NotesRepository } from '../db';
import type { NoteChangeSource } from '../db/note-versions';

const noteIdSchema = z.string().min(1, 'note_id is required');

function notFound(noteId: string): AppError {
  return new AppError('NOTE_NOT_FOUND', 'This note does not exist.', { note_id: noteId });
}

/** MiB with one decimal, as people read file sizes. */
function mib(characters: number): string {
  return (characters / (1024 * 1024)).toFixed(1);
}

/**
 * A body over the cap (a paste, a long recording) is refused before the
 * schema's generic answer, with the sizes a person can act on; `field`,
 * `length` and `max_length` let the editor say it in the reader's language.
 */
function checkBodyLength(input: unknown): void {
  const body = typeof input === 'object' && input !== null ? (input as { body?: unknown }).body : undefined;
  if (typeof body !== 'string' || body.length <= MAX_BODY_LENGTH) return;
  throw new AppError(
    'VALIDATION_FAILED',
    `The note's text is ${mib(body.length)} MiB; a note holds at most ${mib(MAX_BODY_LENGTH)} MiB. Split it into several notes.`,
    {
      fields: [{ path: 'body', message: 'Too long' }],
      field: 'body',
      length: body.length,
      max_length: MAX_BODY_LENGTH,
    },
  );
}

/** Told after a note's title changed, so links to the old title can follow. */
export type RenameListener = (note: NoteDto, oldTitle: string) => Promise<void>;

/** Told after notes changed folder (a move, a folder renamed), so path links to their old place can follow. */
export type MoveListener = (moves: readonly NoteMove[]) => Promise<void>;

/** The notebook's API: validates input, maps repository outcomes to contract errors. */
export class NotesService {
  readonly #notes: NotesRepository;
  #onRenamed: RenameListener | undefined;
  #onMoved: MoveListener | undefined;

  constructor(notes: NotesRepository) {
    this.#notes = notes;
  }

  /** The links service rewrites `[[Old title]]` in other notes after a rename. */
  onRenamed(listener: RenameListener): void {
    this.#onRenamed = listener;
  }

  /** The links service rewrites `[[old folder/Title]]` in other notes after notes moved. */
  onMoved(listener: MoveListener): void {
    this.#onMoved = listener;
  }

  /** After the move has committed: a link that cannot follow must not turn it into an error. */
  async #moved(moves: readonly NoteMove[]): Promise<void> {
    if (!this.#onMoved || moves.length === 0) return;
    await this.#onMoved(moves).catch((error: unknown) =>
      console.error('rewriting links after a move failed', error),
    );
  }

  /** `source`: who created it, when it is not the user (the note's history keeps the creation). */
  async create(input: CreateNoteInput, source?: NoteChangeSource): Promise<NoteDto> {
    checkBodyLength(input);
    return this.#notes.create(parseInput(createNoteSchema, input), source);
  }

  async get(noteId: string): Promise<NoteDto> {
    const id = parseInput(noteIdSchema, noteId);
    const note = await this.#notes.get(id);
    if (!note) throw notFound(id);
    return note;
  }

  /**
   * `source` says who made the change, for the note's history (the page's
   * saves are the user's); agent and plugin changes always keep their own version.
   */
  async update(input: UpdateNoteInput, source?: NoteChangeSource): Promise<NoteDto> {
    checkBodyLength(input);
    const { note_id, expected_version, ...patch } = parseInput(updateNoteSchema, input);
    let oldTitle = '';
    let oldFolder = '';
    const check = (current: NoteDto): void => {
      oldTitle = current.title;
      oldFolder = current.folder;
      if (current.deleted_at !== null) {
        throw new AppError('STATE_CONFLICT', 'This note is in the trash. Restore it before editing.', {
          note_id,
        });
      }
      if (expected_version !== undefined && current.version !== expected_version) {
        throw new AppError('NOTE_VERSION_CONFLICT', 'This note was changed elsewhere since you opened it.', {
          note_id,
          expected_version,
          current_version: current.version,
        });
      }
    };
    const updated = await this.#notes.update(note_id, patch, check, source);
    if (!updated) throw notFound(note_id);
    if (this.#onRenamed && updated.title !== oldTitle) {
      // The save has committed; a link that cannot be rewritten must not turn it into an error.
      await this.#onRenamed(updated, oldTitle).catch((error: unknown) =>
        console.error('rewriting links after a rename failed', error),
      );
    }
    if (updated.folder !== oldFolder) {
      await this.#moved([
        { note_id: updated.note_id, title: updated.title, from: oldFolder, to: updated.folder },
      ]);
    }
    return updated;
  }

  async list(input: ListNotesInput = {}): Promise<OffsetPage<NoteSummaryDto>> {
    const query = parseInput(listNotesSchema, input);
    const { items, total } = await this.#notes.list(query);
    return { items, page: { total, limit: query.limit, offset: query.offset } };
  }

  async trash(noteId: string): Promise<NoteDto> {
    return this.#setTrashed(noteId, true);
  }

  async restore(noteId: string): Promise<NoteDto> {
    return this.#setTrashed(noteId, false);
  }

  async #setTrashed(noteId: string, trashed: boolean): Promise<NoteDto> {
    const id = parseInput(noteIdSchema, noteId);
    const note = await this.#notes.setTrashed(id, trashed, (current) => {
      if ((current.deleted_at !== null) === trashed) {
        throw new AppError(
          'STATE_CONFLICT',
          trashed ? 'This note is already in the trash.' : 'This note is not in the trash.',
          { note_id: id },
        );
      }
    });
    if (!note) throw notFound(id);
    return note;
  }

  /** Permanent deletion is only offered from the trash, so one click cannot lose a live note. */
  async purge(noteId: string): Promise<void> {
    const id = parseInput(noteIdSchema, noteId);
    const existed = await this.#notes.purge(id, (current) => {
      if (current.deleted_at === null) {
        throw new AppError('STATE_CONFLICT', 'Move the note to the trash before deleting it for good.', {
          note_id: id,
        });
      }
    });
    if (!existed) throw notFound(id);
  }

  /** Pins a note to the top of the list (or unpins it); a trashed note cannot be pinned. */
  async setPinned(input: SetPinnedInput): Promise<NoteDto> {
    const { note_id, pinned } = parseInput(setPinnedSchema, input);
    const note = await this.#notes.setPinned(note_id, pinned, (current) => {
      if (current.deleted_at !== null) {
        throw new AppError('STATE_CONFLICT', 'This note is in the trash. Restore it before pinning.', {
          note_id,
        });
      }
    });
    if (!note) throw notFound(note_id);
    return note;
  }

  /** Deletes every note in the trash for good. */
  async emptyTrash(): Promise<{ deleted: number }> {
    return { deleted: await this.#notes.purgeTrashed() };
  }

  folders(): Promise<FolderDto[]> {
    return this.#notes.folders();
  }

  /** Makes an empty folder, so notes can be moved into it. */
  async createFolder(path: string): Promise<FolderDto> {
    const folder = parseInput(folderPathSchema, path);
    if (!(await this.#notes.createFolder(folder))) {
      throw new AppError('STATE_CONFLICT', 'A folder with this name exists already.', { folder });
    }
    return { path: folder, note_count: 0 };
  }

  /**
   * Renames a folder or moves it under another parent (`to` is its new full
   * path), with its sub-folders and notes. Into an existing folder it merges.
   */
  async renameFolder(input: RenameFolderInput): Promise<{ path: string; moved_notes: number }> {
    const { from, to } = parseInput(renameFolderSchema, input);
    if (to === from || to.startsWith(`${from}/`)) {
      throw new AppError('VALIDATION_FAILED', 'A folder cannot be moved into itself.', { from, to });
    }
    // Where its live notes are now, read before the move: links to them name these folders.
    const inside = this.#onMoved
      ? (
          await this.#notes.list({
            folder: from,
            recursive: true,
            trashed: false,
            limit: Number.MAX_SAFE_INTEGER,
            offset: 0,
          })
        ).items
      : [];
    const moved = await this.#notes.renameFolder(from, to);
    if (moved === undefined) {
      throw new AppError('FOLDER_NOT_FOUND', 'This folder does not exist.', { folder: from });
    }
    await this.#moved(
      inside.flatMap((note) => {
        const folder = movedFolder(note.folder, from, to);
        return folder === null
          ? []
          : [{ note_id: note.note_id, title: note.title, from: note.folder, to: folder }];
      }),
    );
    return { path: to, moved_notes: moved };
  }

  /**
   * Deletes a folder with every folder below it: their live notes go to the
   * trash (each keeps its folder, so restoring it puts it back there), in one
   * transaction. With `expected_note_count` (what the confirmation said) and
   * another count now, nothing is deleted. The answer takes it back.
   */
  async deleteFolder(input: DeleteFolderInput): Promise<DeletedFolderDto> {
    const { path, expected_note_count } = parseInput(deleteFolderSchema, input);
    const deleted = await this.#notes.deleteFolder(path, (count) => {
      if (expected_note_count !== undefined && count !== expected_note_count) {
        throw new AppError('STATE_CONFLICT', 'The folder holds other notes than when you asked.', {
          folder: path,
          expected_note_count,
          note_count: count,
        });
      }
    });
    if (!deleted) throw new AppError('FOLDER_NOT_FOUND', 'This folder does not exist.', { folder: path });
    return { path, ...deleted };
  }

  /**
   * Takes back `deleteFolder` (its answer): the notes it trashed that are still
   * in the trash from then, and the folders made there. A note restored or
   * deleted for good since is left as it is.
   */
  async restoreDeletedFolder(
    input: RestoreDeletedFolderInput,
  ): Promise<{ path: string; restored_notes: number }> {
    const { path, note_ids, folders, deleted_at } = parseInput(restoreDeletedFolderSchema, input);
    const outside = folders.find((folder) => folder !== path && !folder.startsWith(`${path}/`));
    if (outside !== undefined) {
      throw new AppError('VALIDATION_FAILED', 'Only folders inside the deleted one come back with it.', {
        folder: outside,
      });
    }
    return { path, restored_notes: await this.#notes.restoreDeletedFolder(note_ids, folders, deleted_at) };
  }

  tags(): Promise<TagDto[]> {
    return this.#notes.tags();
  }

  /**
   * The tags the tag list counts for this note: its own, then its inline
   * `#tags`. The page asks after a save, to know whether the list changed.
   */
  async tagsOf(noteId: string): Promise<string[]> {
    const id = parseInput(noteIdSchema, noteId);
    const tags = await this.#notes.tagsOf(id);
    if (!tags) throw new AppError('NOTE_NOT_FOUND', 'This note does not exist.', { note_id: id });
    return tags;
  }

  async blocks(noteId: string): Promise<BlockDto[]> {
    const note = await this.get(noteId);
    return this.#notes.blocks(note.note_id);
  }
}

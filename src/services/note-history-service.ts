import { z } from 'zod';
import { AppError, parseInput, type NoteDto } from '../contracts';
import { MAX_BODY_LENGTH, MAX_TITLE_LENGTH } from '../contracts/notes';
import { unifiedDiff } from '../agent/tools';
import { newId } from '../core/ids';
import { DEFAULT_HISTORY_LIMITS, type HistoryLimits } from '../core/note-history';
import { restoredState, type NoteVersionRepository, type NoteVersionRow } from '../db/note-versions';
import type { NotesService } from './notes-service';

/** One entry of a note's history: the note as it was before a change by `origin`. */
export type NoteVersionDto = Omit<NoteVersionRow, 'body'>;

export interface NoteVersionDetailDto {
  version: NoteVersionDto;
  body: string;
  /** Unified diff from this version to the note's current text. */
  diff: string;
}

const idSchema = z.string().min(1, 'An id is required.');
const restoreSchema = z.object({
  version_id: z.string().min(1, 'version_id is required'),
  /** The note version the user was looking at; a later change is a conflict. */
  expected_version: z.number().int().min(1).optional(),
});

const keepConflictSchema = z.object({
  note_id: z.string().min(1, 'note_id is required'),
  title: z.string().max(MAX_TITLE_LENGTH),
  body: z.string().max(MAX_BODY_LENGTH),
  /** The note version the text was typed on top of. */
  base_version: z.number().int().min(1),
});

export interface NoteHistoryOptions {
  now?: () => string;
  limits?: HistoryLimits;
}

function summary(row: NoteVersionRow): NoteVersionDto {
  const { body: _body, ...rest } = row;
  return rest;
}

/**
 * A note's history: its versions (kept by the notes repository on every
 * change), the diff of one against the current text, and restoring one —
 * itself a change with its own version, so a restore can be undone.
 */
export class NoteHistoryService {
  readonly #notes: NotesService;
  readonly #versions: NoteVersionRepository;

  readonly #now: () => string;
  readonly #limits: HistoryLimits;

  constructor(notes: NotesService, versions: NoteVersionRepository, options: NoteHistoryOptions = {}) {
    this.#notes = notes;
    this.#versions = versions;
    this.#now = options.now ?? (() => new Date().toISOString());
    this.#limits = options.limits ?? DEFAULT_HISTORY_LIMITS;
  }

  /**
   * Keeps text whose save lost to a newer write (another tab saved first) as a
   * `conflict` version of the note, so neither text is lost and the user can
   * look at it or restore it. Keeping the same text twice returns the first
   * version. STATE_CONFLICT when the text is not behind the note (it is to be
   * saved, not kept aside) or the note already holds it.
   */
  async keepConflict(input: z.input<typeof keepConflictSchema>): Promise<NoteVersionDto> {
    const { note_id, title, body, base_version } = parseInput(keepConflictSchema, input);
    const note = await this.#notes.get(note_id);
    if (base_version >= note.version) {
      throw new AppError('STATE_CONFLICT', 'This text is not behind the stored note: save it instead.', {
        note_id,
        base_version,
        current_version: note.version,
      });
    }
    if (note.title === title && note.body === body) {
      throw new AppError('STATE_CONFLICT', 'The note already holds this text.', { note_id });
    }
    const kept = (await this.#versions.forNote(note_id)).find(
      (row) =>
        row.origin === 'conflict' &&
        row.note_version === base_version &&
        row.title === title &&
        row.body === body,
    );
    if (kept) return summary(kept);
    const row: NoteVersionRow = {
      version_id: newId('note_version'),
      note_id,
      origin: 'conflict',
      title,
      body,
      note_version: base_version,
      changed_to_version: null,
      run_id: null,
      tool: null,
      created_at: this.#now(),
      undone_at: null,
    };
    await this.#versions.add(row, this.#limits);
    return summary(row);
  }

  /** Newest first; NOTE_NOT_FOUND for an unknown note. */
  async list(noteId: string): Promise<NoteVersionDto[]> {
    const note = await this.#notes.get(parseInput(idSchema, noteId));
    return (await this.#versions.forNote(note.note_id)).map(summary);
  }

  async get(versionId: string): Promise<NoteVersionDetailDto> {
    const row = await this.#row(parseInput(idSchema, versionId));
    const note = await this.#notes.get(row.note_id);
    return {
      version: summary(row),
      body: row.body,
      diff: unifiedDiff(row.body, note.body, note.title || 'note.md'),
    };
  }

  /**
   * Puts the version's title and body back, and its folder and tags when the
   * change after it moved or re-tagged the note; STATE_CONFLICT in the trash,
   * NOTE_VERSION_CONFLICT when stale.
   */
  async restore(input: z.input<typeof restoreSchema>): Promise<NoteDto> {
    const { version_id, expected_version } = parseInput(restoreSchema, input);
    const row = await this.#row(version_id);
    return this.#notes.update(
      { ...restoredState(row), ...(expected_version !== undefined && { expected_version }) },
      { origin: 'restore' },
    );
  }

  /**
   * Undoes the agent's creation of a note by moving the note to the trash
   * (restorable from there, like any deleted note). Only while the creation
   * is the note's latest agent change and nothing changed the note since:
   * STATE_CONFLICT once it was edited (the edit would go with the note),
   * RESOURCE_NOT_FOUND when the agent did not create it.
   */
  async undoAgentCreation(noteId: string): Promise<NoteDto> {
    const note = await this.#notes.get(parseInput(idSchema, noteId));
    const latest = (await this.#versions.forNote(note.note_id)).find(
      (row) => row.origin === 'agent' && row.undone_at === null,
    );
    if (latest?.creation !== true) {
      throw new AppError('RESOURCE_NOT_FOUND', 'The agent has no creation of this note to undo.', {
        note_id: note.note_id,
      });
    }
    if (note.deleted_at !== null || latest.changed_to_version !== note.version) {
      throw new AppError(
        'STATE_CONFLICT',
        'The note was changed after the agent created it, so removing it would lose that change.',
        { note_id: note.note_id, version: note.version, changed_to_version: latest.changed_to_version },
      );
    }
    const trashed = await this.#notes.trash(note.note_id);
    await this.#versions.update(latest.version_id, { undone_at: this.#now() });
    return trashed;
  }

  async #row(versionId: string): Promise<NoteVersionRow> {
    const row = await this.#versions.get(versionId);
    if (!row) {
      throw new AppError('RESOURCE_NOT_FOUND', 'This version of the note no longer exists.', {
        version_id: versionId,
      });
    }
    return row;
  }
}

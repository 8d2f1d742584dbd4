import { z } from 'zod';
import { AppError, parseInput, type NoteDto } from '../contracts';
import { unifiedDiff } from '../agent/tools';
import type { NoteVersionRepository, NoteVersionRow } from '../db/note-versions';
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

  constructor(notes: NotesService, versions: NoteVersionRepository) {
    this.#notes = notes;
    this.#versions = versions;
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

  /** Puts the version's title and body back; STATE_CONFLICT in the trash, NOTE_VERSION_CONFLICT when stale. */
  async restore(input: z.input<typeof restoreSchema>): Promise<NoteDto> {
    const { version_id, expected_version } = parseInput(restoreSchema, input);
    const row = await this.#row(version_id);
    return this.#notes.update(
      {
        note_id: row.note_id,
        title: row.title,
        body: row.body,
        ...(expected_version !== undefined && { expected_version }),
      },
      { origin: 'restore' },
    );
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

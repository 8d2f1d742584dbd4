import type { StorageUsageDto, StoredKindDto } from '../contracts/settings-storage';
import { utf8Length } from '../core/utf8-length';
import type { NotesAgentDatabase } from '../db';
import { NOTE_VERSIONS_TABLE } from '../db/note-versions';

/**
 * Counts and sizes of what the app stores, for Settings → Storage. Reads only.
 *
 * Text is sized as the UTF-8 bytes of title and body. The meta rows hold a
 * body's length in UTF-16 code units, not its bytes, so bodies are read: one
 * row at a time through a cursor, each counted in place (`utf8Length`) rather
 * than encoded, so a note of 100 MB costs its own row while it is counted and
 * nothing more, never a byte copy of it or the notebook at once.
 */
export class StorageService {
  readonly #db: NotesAgentDatabase;

  constructor(db: NotesAgentDatabase) {
    this.#db = db;
  }

  async usage(): Promise<StorageUsageDto> {
    const notes: StoredKindDto = { count: 0, bytes: 0 };
    const trash: StoredKindDto = { count: 0, bytes: 0 };
    await this.#db.notes.each((note) => {
      const kind = note.trashed === 1 ? trash : notes;
      kind.count += 1;
      kind.bytes += utf8Length(note.title) + utf8Length(note.body);
    });
    const attachments: StoredKindDto = { count: 0, bytes: 0 };
    await this.#db.attachments.each((attachment) => {
      attachments.count += 1;
      attachments.bytes += attachment.size;
    });
    const note_versions: StoredKindDto = { count: 0, bytes: 0 };
    await this.#db.table<{ title: string; body: string }>(NOTE_VERSIONS_TABLE).each((version) => {
      note_versions.count += 1;
      note_versions.bytes += utf8Length(version.title) + utf8Length(version.body);
    });
    return { notes, trash, attachments, note_versions };
  }
}

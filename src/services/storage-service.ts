import type { StorageUsageDto, StoredKindDto } from '../contracts/settings-storage';
import type { NotesAgentDatabase } from '../db';
import { NOTE_VERSIONS_TABLE } from '../db/note-versions';

const encoder = new TextEncoder();
const textBytes = (...texts: string[]) => texts.reduce((sum, text) => sum + encoder.encode(text).length, 0);

/** Counts and sizes of what the app stores, for Settings → Storage. Reads only. */
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
      kind.bytes += textBytes(note.title, note.body);
    });
    const attachments: StoredKindDto = { count: 0, bytes: 0 };
    await this.#db.attachments.each((attachment) => {
      attachments.count += 1;
      attachments.bytes += attachment.size;
    });
    const note_versions: StoredKindDto = { count: 0, bytes: 0 };
    await this.#db.table<{ title: string; body: string }>(NOTE_VERSIONS_TABLE).each((version) => {
      note_versions.count += 1;
      note_versions.bytes += textBytes(version.title, version.body);
    });
    return { notes, trash, attachments, note_versions };
  }
}

import type { StorageUsageDto, StoredKindDto } from '../contracts/settings-storage';
import { utf8Length } from '../core/utf8-length';
import type { NotesAgentDatabase } from '../db';
import { NOTE_VERSIONS_TABLE } from '../db/note-versions';
import { UnusedPictures } from '../db/unused-pictures';

/**
 * Counts and sizes of what the app stores, for Settings → Storage. Reads only,
 * but for deleting the pictures nothing uses.
 *
 * Text is sized as the UTF-8 bytes of title and body. A note's body size is
 * its meta row's `body_bytes`, kept with every write, so the notes are sized
 * from meta rows and note keys: no body is read, however large. A note with
 * no meta row (written straight into the store) is read alone and counted in
 * place (`utf8Length`), never encoded. Versions still carry their bodies and
 * are counted the same way, one row at a time through a cursor.
 */
export class StorageService {
  readonly #db: NotesAgentDatabase;
  readonly #unusedPictures: UnusedPictures;

  constructor(db: NotesAgentDatabase, unusedPictures = new UnusedPictures(db)) {
    this.#db = db;
    this.#unusedPictures = unusedPictures;
  }

  /**
   * Pictures no note, note history, draft, chat message or unfinished job uses
   * (see `UnusedPictures`): how many and their bytes. Reads every note, so it
   * is asked for apart from `usage`, which reads none.
   */
  unusedPictures(): Promise<StoredKindDto> {
    return this.#unusedPictures.find();
  }

  /** Deletes those pictures; how many were deleted and the bytes freed. */
  deleteUnusedPictures(): Promise<StoredKindDto> {
    return this.#unusedPictures.delete();
  }

  async usage(): Promise<StorageUsageDto> {
    const { notes, trash } = await this.#noteUsage();
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

  /** Live notes and the trash, from the meta rows of the notes that exist. */
  async #noteUsage(): Promise<{ notes: StoredKindDto; trash: StoredKindDto }> {
    const notes: StoredKindDto = { count: 0, bytes: 0 };
    const trash: StoredKindDto = { count: 0, bytes: 0 };
    const add = (trashed: 0 | 1, bytes: number): void => {
      const kind = trashed === 1 ? trash : notes;
      kind.count += 1;
      kind.bytes += bytes;
    };
    const { notes: noteTable, note_meta } = this.#db;
    await this.#db.transaction('r', noteTable, note_meta, async () => {
      const uncounted = new Set(await noteTable.toCollection().primaryKeys());
      await note_meta.each((meta) => {
        // A meta row of a purged note counts for nothing; one without a size is sized from its note below.
        if (!uncounted.has(meta.note_id) || !Number.isFinite(meta.body_bytes)) return;
        uncounted.delete(meta.note_id);
        add(meta.trashed, utf8Length(meta.title) + meta.body_bytes);
      });
      for (const id of uncounted) {
        const row = await noteTable.get(id);
        if (row) add(row.trashed, utf8Length(row.title) + utf8Length(row.body));
      }
    });
    return { notes, trash };
  }
}

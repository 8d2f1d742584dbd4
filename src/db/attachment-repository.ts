import { newId, systemClock, type Clock } from '../core/ids';
import type { NotesAgentDatabase } from './database';
import type { AttachmentRow } from './schema';
import { guardQuota, isQuotaExceededError } from './storage-errors';

export type AttachmentInfo = Omit<AttachmentRow, 'blob'>;

export interface AttachmentMeta {
  name: string;
  mime_type?: string;
  /** Hex SHA-256 of the blob's bytes; stored so `putOnce` can find the same bytes again. */
  sha256?: string;
  /** The import job storing it: removed with the import's notes if the import does not complete. */
  importBatch?: string;
}

/**
 * When `putOnce` last handed out an attachment it already had (version 22): the
 * page is about to link it, and until that link is saved nothing stored names
 * it, so Settings → Storage must not take it for unused. Kept apart from the
 * attachment so marking it never rewrites the blob.
 */
export const ATTACHMENT_REUSES_TABLE = 'attachment_reuses';
export const ATTACHMENT_REUSES_STORES = {
  attachment_reuses: '&attachment_id',
} as const satisfies Record<string, string>;

export interface AttachmentReuseRow {
  attachment_id: string;
  /** UTC ISO 8601. */
  reused_at: string;
}

function infoOf(row: AttachmentRow): AttachmentInfo {
  const { blob: _blob, ...info } = row;
  return info;
}

/** Blobs stored once and referred to by id (audio, imported archives). */
export class AttachmentRepository {
  readonly #db: NotesAgentDatabase;
  readonly #clock: Clock;

  constructor(db: NotesAgentDatabase, clock: Clock = systemClock) {
    this.#db = db;
    this.#clock = clock;
  }

  get #reuses() {
    return this.#db.table<AttachmentReuseRow, string>(ATTACHMENT_REUSES_TABLE);
  }

  async put(blob: Blob, meta: AttachmentMeta): Promise<AttachmentInfo> {
    const row = this.#row(blob, meta);
    await guardQuota(() => this.#db.attachments.add(row));
    return infoOf(row);
  }

  /**
   * Stores the blob unless an attachment with the same SHA-256 exists; that one
   * is returned instead (`created: false`). One transaction, so two uploads of
   * the same bytes at once still store them once. An existing one an import
   * stored becomes nobody's import's: a roll-back of that import must not
   * take a picture someone else now links. Handing out an existing one is
   * noted (`attachment_reuses`): see `UnusedPictures`.
   */
  async putOnce(
    blob: Blob,
    meta: AttachmentMeta & { sha256: string },
  ): Promise<{ attachment: AttachmentInfo; created: boolean }> {
    try {
      return await this.#putOnce(blob, meta);
    } catch (error) {
      // Storage full: the same bytes already stored are handed out unmarked rather than
      // refused, as before the mark existed (a paste of a stored picture needs no room).
      // Unmarked, only the grace period of its creation keeps it from Storage's delete.
      if (!isQuotaExceededError(error)) throw error;
      const existing = await this.#db.attachments.where('sha256').equals(meta.sha256).first();
      const batchKept = existing?.import_batch === undefined || existing.import_batch === meta.importBatch;
      if (!existing || !batchKept) throw error;
      return { attachment: infoOf(existing), created: false };
    }
  }

  #putOnce(
    blob: Blob,
    meta: AttachmentMeta & { sha256: string },
  ): Promise<{ attachment: AttachmentInfo; created: boolean }> {
    return guardQuota(() =>
      this.#db.transaction('rw', this.#db.attachments, this.#reuses, async () => {
        const existing = await this.#db.attachments.where('sha256').equals(meta.sha256).first();
        if (existing) {
          await this.#reuses.put({ attachment_id: existing.attachment_id, reused_at: this.#now() });
          if (existing.import_batch !== undefined && existing.import_batch !== meta.importBatch) {
            await this.#db.attachments
              .where('attachment_id')
              .equals(existing.attachment_id)
              .modify((row) => {
                delete row.import_batch;
              });
          }
          return { attachment: infoOf(existing), created: false };
        }
        const row = this.#row(blob, meta);
        await this.#db.attachments.add(row);
        return { attachment: infoOf(row), created: true };
      }),
    );
  }

  get(attachmentId: string): Promise<AttachmentRow | undefined> {
    return this.#db.attachments.get(attachmentId);
  }

  /** The attachment without reading its blob into the result. */
  async info(attachmentId: string): Promise<AttachmentInfo | undefined> {
    const row = await this.#db.attachments.get(attachmentId);
    return row && infoOf(row);
  }

  async delete(attachmentId: string): Promise<void> {
    await this.#db.attachments.delete(attachmentId);
  }

  async deleteMany(attachmentIds: readonly string[]): Promise<void> {
    await this.#db.attachments.bulkDelete([...attachmentIds]);
  }

  /**
   * Removes what an import stored (see `importBatch`), or of that only the
   * given ones; the count removed. One that something else has stored since
   * is no longer the import's and stays.
   */
  async deleteImportBatch(batchId: string, only?: readonly string[]): Promise<number> {
    const ids = only === undefined ? null : new Set(only);
    return this.#db.attachments
      .where('import_batch')
      .equals(batchId)
      .filter((row) => ids === null || ids.has(row.attachment_id))
      .delete();
  }

  #now(): string {
    return new Date(this.#clock()).toISOString();
  }

  #row(blob: Blob, meta: AttachmentMeta): AttachmentRow {
    return {
      attachment_id: newId('attachment'),
      name: meta.name,
      mime_type: meta.mime_type ?? (blob.type || 'application/octet-stream'),
      size: blob.size,
      blob,
      created_at: this.#now(),
      ...(meta.sha256 ? { sha256: meta.sha256 } : {}),
      ...(meta.importBatch === undefined ? {} : { import_batch: meta.importBatch }),
    };
  }
}

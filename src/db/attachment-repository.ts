import { newId } from '../core/ids';
import type { NotesAgentDatabase } from './database';
import type { AttachmentRow } from './schema';
import { guardQuota } from './storage-errors';

export type AttachmentInfo = Omit<AttachmentRow, 'blob'>;

export interface AttachmentMeta {
  name: string;
  mime_type?: string;
  /** Hex SHA-256 of the blob's bytes; stored so `putOnce` can find the same bytes again. */
  sha256?: string;
}

function infoOf(row: AttachmentRow): AttachmentInfo {
  const { blob: _blob, ...info } = row;
  return info;
}

/** Blobs stored once and referred to by id (audio, imported archives). */
export class AttachmentRepository {
  readonly #db: NotesAgentDatabase;

  constructor(db: NotesAgentDatabase) {
    this.#db = db;
  }

  async put(blob: Blob, meta: AttachmentMeta): Promise<AttachmentInfo> {
    const row = this.#row(blob, meta);
    await guardQuota(() => this.#db.attachments.add(row));
    return infoOf(row);
  }

  /**
   * Stores the blob unless an attachment with the same SHA-256 exists; that one
   * is returned instead (`created: false`). One transaction, so two uploads of
   * the same bytes at once still store them once.
   */
  async putOnce(
    blob: Blob,
    meta: AttachmentMeta & { sha256: string },
  ): Promise<{ attachment: AttachmentInfo; created: boolean }> {
    return guardQuota(() =>
      this.#db.transaction('rw', this.#db.attachments, async () => {
        const existing = await this.#db.attachments.where('sha256').equals(meta.sha256).first();
        if (existing) return { attachment: infoOf(existing), created: false };
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

  #row(blob: Blob, meta: AttachmentMeta): AttachmentRow {
    return {
      attachment_id: newId('attachment'),
      name: meta.name,
      mime_type: meta.mime_type ?? (blob.type || 'application/octet-stream'),
      size: blob.size,
      blob,
      created_at: new Date().toISOString(),
      ...(meta.sha256 ? { sha256: meta.sha256 } : {}),
    };
  }
}

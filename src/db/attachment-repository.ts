import { newId } from '../core/ids';
import type { NotesAgentDatabase } from './database';
import type { AttachmentRow } from './schema';

export type AttachmentInfo = Omit<AttachmentRow, 'blob'>;

/** Blobs stored once and referred to by id (audio, imported archives). */
export class AttachmentRepository {
  readonly #db: NotesAgentDatabase;

  constructor(db: NotesAgentDatabase) {
    this.#db = db;
  }

  async put(blob: Blob, meta: { name: string; mime_type?: string }): Promise<AttachmentInfo> {
    const row: AttachmentRow = {
      attachment_id: newId('attachment'),
      name: meta.name,
      mime_type: meta.mime_type ?? (blob.type || 'application/octet-stream'),
      size: blob.size,
      blob,
      created_at: new Date().toISOString(),
    };
    await this.#db.attachments.add(row);
    const { blob: _blob, ...info } = row;
    return info;
  }

  get(attachmentId: string): Promise<AttachmentRow | undefined> {
    return this.#db.attachments.get(attachmentId);
  }

  async delete(attachmentId: string): Promise<void> {
    await this.#db.attachments.delete(attachmentId);
  }
}

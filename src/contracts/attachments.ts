import type { z } from 'zod';
import type { uploadAttachmentSchema } from './attachments-schemas';

/** An attachment as callers see it; the bytes come from `blob(id)`. Zod-free; the schema is in attachments-schemas.ts. */
export interface AttachmentDto {
  attachment_id: string;
  name: string;
  mime_type: string;
  size: number;
  /** Hex SHA-256 of the bytes; null for attachments stored before hashes were kept. */
  sha256: string | null;
  created_at: string;
}

export type UploadAttachmentInput = z.input<typeof uploadAttachmentSchema>;

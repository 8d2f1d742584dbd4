import { z } from 'zod';

export const uploadAttachmentSchema = z.strictObject({
  name: z.string().trim().min(1, 'the file needs a name').max(255),
  mime_type: z.string().trim().max(255).default(''),
  data: z.custom<Blob | Uint8Array>(
    (value) => value instanceof Blob || value instanceof Uint8Array,
    'expected the file bytes (a Blob or a Uint8Array)',
  ),
});

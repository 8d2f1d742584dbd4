import { z } from 'zod';
import { IMPORT_DUPLICATE_ACTIONS } from './archive';
import { folderSchema } from './notes';

export const importFilesSchema = z.object({
  files: z
    .array(
      z.union([
        z.object({ path: z.string().min(1).max(4096), content: z.string() }),
        // A picture the notes may link, as the picked File: read only if a note links it.
        z.object({
          path: z.string().min(1).max(4096),
          data: z.custom<Blob>((value) => value instanceof Blob, 'expected the file (a Blob)'),
        }),
      ]),
    )
    .min(1, 'choose at least one Markdown file'),
  target_folder: folderSchema.default(''),
  on_duplicate: z.enum(IMPORT_DUPLICATE_ACTIONS).default('skip'),
});

export const importZipSchema = z.object({
  // A Blob (the picked File) is stored as it is: the page need not read the whole file first.
  data: z
    .custom<Uint8Array | Blob>(
      (value) => value instanceof Uint8Array || value instanceof Blob,
      'expected file bytes',
    )
    .refine((data) => (data instanceof Blob ? data.size : data.byteLength) > 0, 'the file is empty'),
  file_name: z.string().min(1).max(1024),
  target_folder: folderSchema.default(''),
  on_duplicate: z.enum(IMPORT_DUPLICATE_ACTIONS).default('skip'),
});

import type { z } from 'zod';
import type { importFilesSchema, importZipSchema } from './archive-schemas';

/** Markdown import and export. Zod-free; the request schemas are in archive-schemas.ts. */

/** The result of a finished import job. */
export interface ImportResult {
  imported: number;
  skipped: number;
  /**
   * Everything skipped, renamed or repaired, one per entry: `path` as written in
   * the archive, `renamed_to` where the note was stored under another path.
   */
  warnings: {
    path: string;
    reason: string;
    action: 'skipped' | 'renamed' | 'repaired';
    renamed_to?: string;
  }[];
}

export type ImportFilesInput = z.input<typeof importFilesSchema>;
export type ImportZipInput = z.input<typeof importZipSchema>;

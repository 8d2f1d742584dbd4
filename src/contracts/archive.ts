import type { z } from 'zod';
import type { importFilesSchema, importZipSchema } from './archive-schemas';

/** Markdown import and export. Zod-free; the request schemas are in archive-schemas.ts. */

/**
 * What an import does with a note already in the notebook (same `note_id` in
 * its front matter, or the same title and text): leave the existing note
 * (`skip`), overwrite it with the archive's version (`update`), or add the
 * archive's as another note (`keep_both`, the behaviour before duplicates were detected).
 */
export const IMPORT_DUPLICATE_ACTIONS = ['skip', 'update', 'keep_both'] as const;
export type ImportDuplicateAction = (typeof IMPORT_DUPLICATE_ACTIONS)[number];

/** The result of a finished import job. */
export interface ImportResult {
  /** Notes written: `created` + `updated`. */
  imported: number;
  /** Files not imported: unreadable ones (in `warnings`) and `duplicates_skipped`. */
  skipped: number;
  /** New notes. */
  created: number;
  /** Existing notes overwritten (`on_duplicate: 'update'`). */
  updated: number;
  /** Files left out because the note is already here (`on_duplicate: 'skip'`). */
  duplicates_skipped: number;
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

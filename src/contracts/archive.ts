import type { z } from 'zod';
import type { importFilesSchema, importZipSchema } from './archive-schemas';

/** Markdown import and export. Zod-free; the request schemas are in archive-schemas.ts. */

/**
 * What an import does with a note already in the notebook (same `note_id` in
 * its front matter; the same title and text; or, for a file without a
 * `note_id`, the one note with its folder and title): leave the existing note
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
  /** Of `duplicates_skipped`, those whose text in the archive differs from the notebook's. */
  skipped_changed: number;
  /**
   * Files that are not notes (images, PDFs…), not imported and not counted in `skipped`; the
   * first 1,000 are in `warnings` (reason `not_markdown`). Hidden files and folders such as
   * `.obsidian/` are another app's settings and are neither counted nor listed.
   */
  left_out: number;
  /**
   * Pictures the written notes link that came from the archive (a Markdown
   * link by path, or Obsidian's `![[name.png]]`), now stored with the notes;
   * they are not in `left_out`. Absent in results of older versions.
   */
  pictures?: number;
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

/**
 * Why an exported backup would be refused by this app's import, found while
 * exporting: one note too large or compressing like a zip bomb, or the
 * notes together too many or too large. The file is written all the same.
 */
export type ReimportProblem =
  | {
      reason: 'entry_too_large' | 'ratio_too_high';
      note_id: string;
      title: string;
      /** The entry's path in the archive. */
      path: string;
      /** Its size in UTF-8 bytes. */
      bytes: number;
      /** The import limit it is over (bytes, or the ratio's N for N:1). */
      limit: number;
    }
  | { reason: 'total_too_large' | 'too_many_entries'; count: number; bytes: number; limit: number };

/** An exported backup. */
export interface NotebookExport {
  file_name: string;
  data: Blob;
  /** What would stop the file from importing again; empty when it imports whole. */
  reimport_problems: ReimportProblem[];
}

export type ImportFilesInput = z.input<typeof importFilesSchema>;
export type ImportZipInput = z.input<typeof importZipSchema>;

import type { z } from 'zod';
import type { importFilesSchema, importZipSchema } from './archive-schemas';

/** Markdown import and export. Zod-free; the request schemas are in archive-schemas.ts. */

/**
 * What an import does with a note already in the notebook (same `note_id` in
 * its front matter; the same title and text; the same text in the same folder,
 * when that text is long enough to be the note's own and no other note or file
 * has it, so a note renamed in the app is still known; or, for a file without a
 * `note_id`, the one note with its folder and title): leave the existing note
 * (`skip`), overwrite it with the archive's version (`update`), or add the
 * archive's as another note (`keep_both`, the behaviour before duplicates were detected).
 */
export const IMPORT_DUPLICATE_ACTIONS = ['skip', 'update', 'keep_both'] as const;
export type ImportDuplicateAction = (typeof IMPORT_DUPLICATE_ACTIONS)[number];

/** How many notes of each kind an import result names; the counts say how many there were. */
export const IMPORT_NAMED_NOTES = 20;

/** A note an import added, updated or skipped, by name. */
export interface ImportedNoteRef {
  /** The note in the notebook (the new one, the one updated, the one already here); null for a second copy within the archive. */
  note_id: string | null;
  /** Its title in the archive. */
  title: string;
  /** The title the notebook's note had, where it differs (a note renamed in the app). */
  existing_title?: string;
}

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
   * The notes by name, the first `IMPORT_NAMED_NOTES` of each kind (`created`,
   * `updated`, `duplicates_skipped` count them all). Absent in results of older versions.
   */
  notes?: { created: ImportedNoteRef[]; updated: ImportedNoteRef[]; skipped: ImportedNoteRef[] };
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

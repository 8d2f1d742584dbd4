import { z } from 'zod';
import { pageQuerySchema } from './pages';
// The limits live in a module without zod: the app shell imports them.
import { MAX_BODY_LENGTH, MAX_INDEXED_CHARS_PER_NOTE } from './note-limits';

export { MAX_BODY_LENGTH, MAX_INDEXED_CHARS_PER_NOTE };

export const MAX_TITLE_LENGTH = 500;
export const MAX_FOLDER_LENGTH = 1000;
export const MAX_TAG_LENGTH = 100;
export const MAX_TAGS = 100;

export interface NoteDto {
  note_id: string;
  title: string;
  folder: string;
  body: string;
  tags: string[];
  version: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  /**
   * Pinned notes lead the note list. Not part of the versioned content: pinning
   * neither bumps `version` nor `updated_at`. Absent means not pinned.
   */
  pinned?: boolean;
}

/**
 * A note in the list: no body, its first words and its length. `body_length`
 * counts UTF-16 code units, as MAX_BODY_LENGTH does.
 */
export type NoteSummaryDto = Omit<NoteDto, 'body'> & {
  excerpt: string;
  body_length: number;
  /**
   * The tags the tag list counts for the note: its own, then its inline `#tags`, one per
   * spelling; what a list row shows. Absent from summaries made before inline tags were kept.
   */
  all_tags?: string[];
};

export interface BlockDto {
  block_id: string;
  note_id: string;
  type: string;
  position: number;
  text: string;
  start_line: number;
  end_line: number;
  hash: string;
}

/** Folders are `/`-separated paths without leading/trailing slashes; '' is the root. */
export const folderSchema = z
  .string()
  .max(MAX_FOLDER_LENGTH)
  .transform((value) =>
    value
      .split('/')
      .map((part) => part.trim())
      .filter((part) => part.length > 0)
      .join('/'),
  )
  .refine((value) => !value.split('/').some((part) => part === '.' || part === '..'), {
    message: 'folder names cannot be . or ..',
  });

const tagSchema = z
  .string()
  .transform((tag) => tag.trim().replace(/^#/, ''))
  .pipe(z.string().min(1).max(MAX_TAG_LENGTH));

export const tagsSchema = z
  .array(tagSchema)
  .max(MAX_TAGS)
  .transform((tags) => [...new Set(tags)]);

export const createNoteSchema = z.object({
  title: z.string().max(MAX_TITLE_LENGTH).default(''),
  folder: folderSchema.default(''),
  body: z.string().max(MAX_BODY_LENGTH).default(''),
  tags: tagsSchema.default([]),
});
export type CreateNoteInput = z.input<typeof createNoteSchema>;

export const updateNoteSchema = z.object({
  note_id: z.string().min(1),
  title: z.string().max(MAX_TITLE_LENGTH).optional(),
  folder: folderSchema.optional(),
  body: z.string().max(MAX_BODY_LENGTH).optional(),
  tags: tagsSchema.optional(),
  /** Optimistic concurrency: when given and stale, the update is a 409. */
  expected_version: z.number().int().min(1).optional(),
});
export type UpdateNoteInput = z.input<typeof updateNoteSchema>;

export const listNotesSchema = pageQuerySchema.extend({
  folder: folderSchema.optional(),
  /** Include notes in sub-folders of `folder`. */
  recursive: z.boolean().default(true),
  tag: z.string().min(1).optional(),
  title_query: z.string().max(MAX_TITLE_LENGTH).optional(),
  trashed: z.boolean().default(false),
  /** Newest change first, newest created first, or by title A→Z; pinned notes lead in each. */
  sort: z.enum(['updated_at', 'created_at', 'title']).default('updated_at'),
});
export type NoteSort = z.output<typeof listNotesSchema>['sort'];
export type ListNotesInput = z.input<typeof listNotesSchema>;

export interface FolderDto {
  path: string;
  note_count: number;
}

export interface TagDto {
  tag: string;
  note_count: number;
}

export const setPinnedSchema = z.object({
  note_id: z.string().min(1),
  pinned: z.boolean(),
});
export type SetPinnedInput = z.input<typeof setPinnedSchema>;

/** A folder the user made (it may hold no note yet); '' (the root) is not one. */
export const folderPathSchema = folderSchema.pipe(z.string().min(1, 'a folder needs a name'));

export const renameFolderSchema = z.object({
  /** The folder to rename or move, with every folder and note below it. */
  from: folderPathSchema,
  /** Its new full path: a new name, or the same name under another parent. */
  to: folderPathSchema,
});
export type RenameFolderInput = z.input<typeof renameFolderSchema>;

export const deleteFolderSchema = z.object({
  /** The folder to delete, with every folder below it; their notes go to the trash. */
  path: folderPathSchema,
  /**
   * The live notes the user was told would go to the trash (the confirmation's count).
   * When given and the folder holds another number now, nothing is deleted (409).
   */
  expected_note_count: z.number().int().min(0).optional(),
});
export type DeleteFolderInput = z.input<typeof deleteFolderSchema>;

/** What a folder's deletion did: enough to take it back (`restoreDeletedFolder`). */
export interface DeletedFolderDto {
  path: string;
  /** The live notes it moved to the trash, in it and below it. */
  note_ids: string[];
  /** The folders the user had made there (rows), which no note's path would bring back. */
  folders: string[];
  /** When they went to the trash: an undo restores only notes trashed then. */
  deleted_at: string;
}

export const restoreDeletedFolderSchema = z.object({
  path: folderPathSchema,
  note_ids: z.array(z.string().min(1)),
  folders: z.array(folderPathSchema),
  deleted_at: z.string().min(1),
});
export type RestoreDeletedFolderInput = z.input<typeof restoreDeletedFolderSchema>;

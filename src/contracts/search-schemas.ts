import { z } from 'zod';
import { folderSchema, tagsSchema } from './notes';
import { REBUILD_SCOPES, SEARCH_FALLBACKS, SEARCH_GROUP_BY, SEARCH_MODES } from './search';

export const MAX_SEARCH_QUERY_LENGTH = 1000;
export const MAX_SEARCH_LIMIT = 100;
/**
 * Blocks ranked for a paged or grouped search: the pages and the total count
 * come from this many. A total above it is reported as capped.
 */
export const SEARCH_WINDOW = 500;

export const searchInputSchema = z.object({
  query: z.string().max(MAX_SEARCH_QUERY_LENGTH),
  /** Full-text by default: with hash-v1 it ranks best at hit@1 on the evaluation corpus. */
  mode: z.enum(SEARCH_MODES).default('fts'),
  /** A folder and everything below it; '' or absent: all folders. */
  folder: folderSchema.optional(),
  /** Every tag must be on the note. */
  tags: tagsSchema.default([]),
  limit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).default(20),
  fallback: z.enum(SEARCH_FALLBACKS).default('none'),
  /** `note`: one group per note, best block first; `limit` and `offset` then count notes. */
  group_by: z.enum(SEARCH_GROUP_BY).default('none'),
  /** Results (or groups) to skip: the pages after the first. */
  offset: z.number().int().min(0).max(SEARCH_WINDOW).default(0),
  /** Search as you type: the last word, when nothing follows it, also matches the words it begins. */
  prefix: z.boolean().default(false),
});
export type SearchInput = z.input<typeof searchInputSchema>;

export const rebuildIndexSchema = z.object({
  scope: z.enum(REBUILD_SCOPES).default('all'),
});
export type RebuildIndexInput = z.input<typeof rebuildIndexSchema>;

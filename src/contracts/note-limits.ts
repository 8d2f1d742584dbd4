/** 5 MiB of Markdown per note: far above real notes, low enough to keep the editor responsive. */
export const MAX_BODY_LENGTH = 5 * 1024 * 1024;

/**
 * Text the search indexes hold per note: a note of 100 MB would otherwise hold
 * the worker and the index's memory. Beyond it a note is found by its first
 * part only, and the app says so.
 */
export const MAX_INDEXED_CHARS_PER_NOTE = 2 * 1024 * 1024;

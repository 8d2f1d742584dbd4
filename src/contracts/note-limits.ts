/** 5 MiB of Markdown per note: far above real notes, low enough to keep the editor responsive. */
export const MAX_BODY_LENGTH = 5 * 1024 * 1024;

/**
 * Text the search indexes hold per note: a note of 100 MB would otherwise hold
 * the worker and the index's memory. Beyond it a note is found by its first
 * part only, and the app says so.
 */
export const MAX_INDEXED_CHARS_PER_NOTE = 2 * 1024 * 1024;

/**
 * The most a draft holds (title and body together): a draft may be longer
 * than a note (`MAX_BODY_LENGTH`) — that is when it matters most — but not
 * without end. The same bound as the largest archive an import reads.
 */
export const MAX_DRAFT_CHARS = 64 * 1024 * 1024;

/**
 * Finding which stored attachments something still refers to, so pictures
 * nothing uses can be deleted (Settings → Storage) and nothing in use ever is.
 *
 * An attachment's id is `attachment_` and 32 hex digits (`newId`). Any place
 * the id appears counts as a use, not only an `attachment:` link: a link in a
 * code block, in raw HTML or under another scheme keeps its picture too. A
 * deleted picture cannot come back, a kept one costs only space.
 */
const ATTACHMENT_ID_IN_TEXT = /attachment_[0-9a-f]{32}/gi;
const ATTACHMENT_ID = /^attachment_[0-9a-f]{32}$/i;

/** Where found ids go: a Set, or something that strikes them off a list. */
export interface AttachmentIdSink {
  add(id: string): unknown;
}

/** Whether `id` has the form the search above finds; one that does not is never judged unused. */
export function isRecognisedAttachmentId(id: string): boolean {
  return ATTACHMENT_ID.test(id);
}

/** Adds to `into` every attachment id `text` mentions, lower-cased as ids are made. */
export function addAttachmentIdsIn(text: string, into: AttachmentIdSink): void {
  // Cheap test first: most text names no attachment, and a 100 MB note is then scanned once.
  if (!/attachment_/i.test(text)) return;
  for (const match of text.matchAll(ATTACHMENT_ID_IN_TEXT)) into.add(match[0].toLowerCase());
}

/** How deep `addAttachmentIdsInValue` looks into nested rows (a stored row is a few levels). */
const MAX_DEPTH = 32;

/**
 * The same for a stored row: every string in it, in arrays and plain objects
 * to `MAX_DEPTH` levels. Bytes (Blob, ArrayBuffer, typed arrays) are not text
 * and are passed over.
 */
export function addAttachmentIdsInValue(value: unknown, into: AttachmentIdSink, depth = 0): void {
  if (typeof value === 'string') {
    addAttachmentIdsIn(value, into);
    return;
  }
  if (value === null || typeof value !== 'object' || depth >= MAX_DEPTH) return;
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return;
  if (typeof Blob !== 'undefined' && value instanceof Blob) return;
  if (Array.isArray(value)) {
    for (const item of value) addAttachmentIdsInValue(item, into, depth + 1);
    return;
  }
  if (value instanceof Map) {
    for (const [key, item] of value) {
      addAttachmentIdsInValue(key, into, depth + 1);
      addAttachmentIdsInValue(item, into, depth + 1);
    }
    return;
  }
  for (const item of Object.values(value)) addAttachmentIdsInValue(item, into, depth + 1);
}

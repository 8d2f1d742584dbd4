import { core } from '../api/core-client';

/** Object URLs kept for pictures shown lately; older ones are revoked (an image already drawn stays drawn). */
const KEPT = 64;
const urls = new Map<string, Promise<string | null>>();

/**
 * An object URL for a note's stored picture, or null when it is not stored
 * (deleted, or a link typed by hand). Shared by every preview, so a picture
 * shown again (the note reopened, its block re-rendered) is not read again.
 */
export function pictureUrl(attachmentId: string): Promise<string | null> {
  const known = urls.get(attachmentId);
  if (known) {
    urls.delete(attachmentId);
    urls.set(attachmentId, known);
    return known;
  }
  const url = core.noteImages.blob(attachmentId).then(
    (blob) => URL.createObjectURL(blob),
    () => {
      // Not kept: the picture may be stored later (an import, an undo).
      urls.delete(attachmentId);
      return null;
    },
  );
  urls.set(attachmentId, url);
  for (const [id, old] of urls) {
    if (urls.size <= KEPT) break;
    urls.delete(id);
    void old.then((stale) => stale && URL.revokeObjectURL(stale));
  }
  return url;
}

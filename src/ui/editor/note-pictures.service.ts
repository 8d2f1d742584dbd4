import { core } from '../api/core-client';
import { errorCodeOf } from '../error-message';
import { reportError } from '../errors';
import { t } from '../i18n';
import { toasts } from '../toasts/toasts.svelte';
import { noteImageMarkdown } from '../../core/note-images';

/** The files of a paste or drop that should become pictures; none when text comes along (a copied table is text). */
export function pictureFiles(data: DataTransfer | null, textWins: boolean): File[] {
  if (!data || data.files.length === 0) return [];
  if (textWins && data.getData('text/plain') !== '') return [];
  return [...data.files];
}

/**
 * Stores each file as a picture of the note and returns the Markdown that shows
 * it, in the files' order. A file that is not a picture, or too large, is said so
 * by name; the others still go in.
 */
export async function storePictures(files: readonly File[]): Promise<string[]> {
  const links: string[] = [];
  for (const file of files) {
    const name = file.name || 'image';
    try {
      const stored = await core.noteImages.attach({ name, mime_type: file.type, data: file });
      links.push(noteImageMarkdown(name, stored.attachment_id));
    } catch (error) {
      const code = errorCodeOf(error);
      if (code === 'VALIDATION_FAILED')
        toasts.show(t('noteImages.notPicture', { name }), { kind: 'error', code });
      else if (code === 'PAYLOAD_TOO_LARGE')
        toasts.show(t('noteImages.tooLarge', { name }), { kind: 'error', code });
      else reportError(error);
    }
  }
  return links;
}

import { core } from '../api/core-client';
import { errorCodeOf } from '../error-message';
import { reportError } from '../errors';
import { t } from '../i18n';
import { toasts } from '../toasts/toasts.svelte';
import type { EditorView } from '@codemirror/view';
import { noteImageMarkdown, pictureLinesBetween } from '../../core/note-images';

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

/**
 * Puts the textarea's caret where a drop landed, so the pictures go in there and
 * not at the caret left elsewhere. Chromium does not move a textarea's caret while
 * files are dragged over it, and `caretRangeFromPoint` answers with the textarea's
 * parent; `caretPositionFromPoint` names the textarea and the offset in its value.
 * Where a browser has no such answer the caret stays where it was.
 */
export function caretToDropPoint(input: HTMLTextAreaElement, event: DragEvent): void {
  const found =
    'caretPositionFromPoint' in document
      ? document.caretPositionFromPoint(event.clientX, event.clientY)
      : null;
  input.focus();
  if (found?.offsetNode !== input) return;
  const offset = Math.min(found.offset, input.value.length);
  input.setSelectionRange(offset, offset);
}

/** The large-note editor's caret where a drop landed (nearest the point when it is past the text). */
export function viewCaretToDropPoint(view: EditorView, event: DragEvent): void {
  const at = view.posAtCoords({ x: event.clientX, y: event.clientY }, false);
  view.dispatch({ selection: { anchor: at } });
  view.focus();
}

/**
 * The pictures' links into the large-note editor in place of its selection, as
 * its own transaction: one undo step, journaled and saved as typing is. Only the
 * characters either side are read, not the document.
 */
export function insertPicturesInView(view: EditorView, links: readonly string[]): void {
  const { state } = view;
  const { from, to } = state.selection.main;
  const insert = pictureLinesBetween(
    state.sliceDoc(Math.max(0, from - 1), from),
    state.sliceDoc(to, to + 1),
    links,
  );
  view.dispatch({
    changes: { from, to, insert },
    selection: { anchor: from + insert.length },
    userEvent: 'input.paste',
    scrollIntoView: true,
  });
  view.focus();
}

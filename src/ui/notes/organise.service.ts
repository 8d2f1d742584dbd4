import type { NoteSort, NoteSummaryDto } from '../../contracts/notes';
import { core } from '../api/core-client';
import { confirmation } from '../dialogs/confirm.svelte';
import { closeNote, editFolder, refreshOpenNote, saveNow } from '../editor/editor.service';
import { editor } from '../editor/editor.svelte';
import { reportError } from '../errors';
import { t } from '../i18n';
import { navigate } from '../navigation';
import { notesRoute } from '../router';
import { toasts } from '../toasts/toasts.svelte';
import { refreshAll, refreshList, refreshSidebar } from './notes.service';
import { notes } from './notes.svelte';

/** Organising the notebook: sort, pin, folders, moving notes, emptying the trash. */
export function setSort(sort: NoteSort): void {
  notes.setSort(sort);
  void refreshList({ top: true });
}

export async function togglePin(note: Pick<NoteSummaryDto, 'note_id' | 'pinned'>): Promise<void> {
  try {
    await core.notes.setPinned({ note_id: note.note_id, pinned: !note.pinned });
    await refreshList();
  } catch (error) {
    reportError(error);
  }
}

/** After a confirmation: every note in the trash is deleted for good. */
export async function emptyTrash(): Promise<void> {
  const count = notes.total;
  const confirmed = await confirmation.ask({
    title: t('list.emptyTrashTitle'),
    message: t('list.emptyTrashMessage', { count }),
    confirmLabel: t('list.emptyTrashConfirm'),
    danger: true,
  });
  if (!confirmed) return;
  try {
    const { deleted } = await core.notes.emptyTrash();
    if (editor.note?.deleted_at) closeNote();
    toasts.show(t('list.trashEmptied', { count: deleted }), { kind: 'success' });
    await refreshAll();
  } catch (error) {
    reportError(error);
  }
}

/** Makes an empty folder; its path as stored when it was made, else null. */
export async function createFolder(path: string): Promise<string | null> {
  try {
    const folder = await core.notes.createFolder(path);
    await refreshSidebar();
    return folder.path;
  } catch (error) {
    reportError(error);
    return null;
  }
}

/** Renames a folder or moves it (a new full path); the filter and the open note follow it. */
export async function renameFolder(from: string, to: string): Promise<string | null> {
  try {
    // The open note may be in it: its text is saved first, so the move is not a conflict.
    await saveNow();
    const { path } = await core.notes.renameFolder({ from, to });
    const filter = notes.folder;
    if (filter !== null && (filter === from || filter.startsWith(`${from}/`))) {
      navigate(notesRoute({ folder: `${path}${filter.slice(from.length)}`, tag: notes.tag }), {
        replace: true,
      });
    }
    await refreshAll();
    await refreshOpenNote();
    return path;
  } catch (error) {
    reportError(error);
    return null;
  }
}

/** Moves a note into a folder ('' is the top level); the open note moves through its editor. */
export async function moveNoteToFolder(noteId: string, folder: string): Promise<void> {
  try {
    if (editor.noteId === noteId) {
      editFolder(folder);
      await saveNow();
    } else {
      // The open note may link to the moved one: its text is saved first, so the core's
      // rewrite of those links builds on it and the editor then shows the rewritten text.
      await saveNow();
      await core.notes.update({ note_id: noteId, folder });
    }
    toasts.show(t('sidebar.noteMoved', { folder: folder || t('list.rootFolder') }), { kind: 'success' });
    await refreshAll();
    await refreshOpenNote();
  } catch (error) {
    reportError(error);
  }
}

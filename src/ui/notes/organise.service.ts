import type { DeletedFolderDto, NoteSort, NoteSummaryDto } from '../../contracts/notes';
import { core } from '../api/core-client';
import { confirmation } from '../dialogs/confirm.svelte';
import { closeNote, editFolder, refreshOpenNote, saveNow } from '../editor/editor.service';
import { editor } from '../editor/editor.svelte';
import { reportError } from '../errors';
import { t } from '../i18n';
import { navigate } from '../navigation';
import { notesRoute } from '../router';
import { toasts } from '../toasts/toasts.svelte';
import { folderName } from './folder-menu';
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
    // The Empty trash button went with the notes, and the dialog gave the focus back to nothing:
    // it goes to the empty list's own words ("The trash is empty."), where the next Tab goes on.
    if (focusLost()) notes.requestFocus({ kind: 'empty' });
  } catch (error) {
    reportError(error);
  }
}

function focusLost(): boolean {
  const active = document.activeElement;
  return active === null || active === document.body || !active.isConnected;
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

/** `folder` is `path` or a folder inside it. */
function within(folder: string | null, path: string): folder is string {
  return folder !== null && (folder === path || folder.startsWith(`${path}/`));
}

/**
 * After a confirmation saying what goes: deletes a folder with the folders inside it, and its
 * notes go to the trash with an Undo, as a deleted note does. The count asked about is the one
 * deleted (a note another tab added meanwhile makes it a conflict: nothing goes). Resolves to
 * whether the folder was deleted.
 */
export async function deleteFolder(path: string): Promise<boolean> {
  const name = folderName(path);
  const count = notes.folders.find((folder) => folder.path === path)?.note_count ?? 0;
  const confirmed = await confirmation.ask({
    title: t('sidebar.deleteFolder.title', { name }),
    message:
      count > 0
        ? t('sidebar.deleteFolder.message', { name, count })
        : t('sidebar.deleteFolder.emptyMessage', { name }),
    confirmLabel: t(count > 0 ? 'sidebar.deleteFolder.confirm' : 'sidebar.deleteFolder.confirmEmpty'),
    danger: true,
  });
  if (!confirmed) return false;
  try {
    // The open note may be in it: its text is saved first, so the trash holds what was typed.
    await saveNow();
    const open = editor.note;
    // Text that could not be saved (a conflict) stays on screen, not in the trash.
    if (open && editor.conflict && within(open.folder, path)) return false;
    const deleted = await core.notes.deleteFolder({ path, expected_note_count: count });
    if (open && deleted.note_ids.includes(open.note_id)) closeNote();
    const filter = notes.view === 'notes' ? notes.folder : null;
    const showing = within(filter, path) ? filter : null;
    if (showing !== null) navigate(notesRoute({ folder: null, tag: notes.tag }), { replace: true });
    const message =
      deleted.note_ids.length > 0
        ? t('sidebar.deleteFolder.done', { name, count: deleted.note_ids.length })
        : t('sidebar.deleteFolder.doneEmpty', { name });
    toasts.show(message, {
      kind: 'info',
      timeoutMs: 6000,
      action: { label: t('editor.undo'), undo: true, run: () => void undoDeleteFolder(deleted, showing) },
    });
    await refreshAll();
    return true;
  } catch (error) {
    reportError(error);
    // A conflict: the tree's counts were behind the notebook's.
    await refreshSidebar();
    return false;
  }
}

/** The toast's Undo: the folder, its folders and its notes come back; the list shows it again if it did. */
async function undoDeleteFolder(deleted: DeletedFolderDto, showing: string | null): Promise<void> {
  try {
    await core.notes.restoreDeletedFolder(deleted);
    toasts.show(t('sidebar.deleteFolder.restored', { name: folderName(deleted.path) }), { kind: 'success' });
    if (showing !== null) navigate(notesRoute({ folder: showing, tag: notes.tag }), { replace: true });
    await refreshAll();
  } catch (error) {
    reportError(error);
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

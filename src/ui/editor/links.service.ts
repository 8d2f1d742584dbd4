import { core } from '../api/core-client';
import { confirmation } from '../dialogs/confirm.svelte';
import { reportError } from '../errors';
import { t } from '../i18n';
import { refreshAll } from '../notes/notes.service';
import { editor } from './editor.svelte';
import { openNote, saveNow } from './editor.service';

/**
 * A `[[wikilink]]` in the preview was followed: the core resolves the title
 * and the note opens; a link to no note offers to create it (in the folder of
 * the note the link is in).
 */
export async function followWikilink(title: string): Promise<void> {
  try {
    await saveNow();
    const target = await core.links.resolve(title);
    if (target) {
      await openNote(target.note_id);
      return;
    }
    const create = await confirmation.ask({
      title: t('links.missingTitle'),
      message: t('links.missingMessage', { title }),
      confirmLabel: t('links.create'),
      danger: false,
    });
    if (!create) return;
    const note = await core.notes.create({ title, folder: editor.content.folder });
    await openNote(note.note_id);
    await refreshAll();
  } catch (error) {
    reportError(error);
  }
}

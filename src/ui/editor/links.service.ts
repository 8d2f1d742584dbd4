import { splitWikilinkTarget } from '../../core/wikilinks-target';
import { fragmentLine } from '../../core/wikilinks-fragment';
import { core } from '../api/core-client';
import { confirmation } from '../dialogs/confirm.svelte';
import { reportError } from '../errors';
import { t } from '../i18n';
import { currentRoute, navigate } from '../navigation';
import { refreshAll } from '../notes/notes.service';
import { notesRoute, sameRoute, type Route } from '../router';
import { editor } from './editor.svelte';
import { openNote, saveNow } from './editor.service';

/** The offer a link to no note makes, clicked or opened as an address. */
function offerToCreate(title: string): Promise<boolean> {
  return confirmation.ask({
    title: t('links.missingTitle'),
    message: t('links.missingMessage', { title }),
    confirmLabel: t('links.create'),
    danger: false,
  });
}

/**
 * The preview of the open note scrolls to the heading or `^block` a link names
 * (and flashes it, as for a search result). A place the note does not have
 * leaves the note where it is, as in Obsidian.
 */
function revealFragment(noteId: string, fragment: string | null): void {
  if (fragment === null || editor.noteId !== noteId) return;
  const line = fragmentLine(editor.body, fragment);
  if (line !== null) editor.requestReveal(noteId, '', line);
}

/**
 * A `[[wikilink]]` in the preview was followed: the core resolves the title
 * and the note opens, at the heading or block after `#` when it has one
 * (`[[#Heading]]` stays in the open note); a link to no note offers to create
 * it (in the folder of the note the link is in).
 */
export async function followWikilink(title: string, fragment: string | null = null): Promise<void> {
  try {
    await saveNow();
    if (title.trim() === '') {
      if (editor.noteId) revealFragment(editor.noteId, fragment);
      return;
    }
    const target = await core.links.resolve(title);
    if (target) {
      await openNote(target.note_id);
      revealFragment(target.note_id, fragment);
      return;
    }
    const create = await offerToCreate(title);
    if (!create) return;
    const note = await core.notes.create({ title, folder: editor.content.folder });
    await openNote(note.note_id);
    await refreshAll();
  } catch (error) {
    reportError(error);
  }
}

/** Of these link titles, those no note has (the preview shows their links as missing). */
export function missingLinks(titles: string[]): Promise<string[]> {
  return core.links.missing(titles);
}

/**
 * `#/wiki/<title>` opened as an address (a wikilink opened in a new tab, a bookmark): the
 * note with that title opens and its own address replaces the wikilink's, so Back does not
 * land on the lookup again. `#/wiki/<title>#<heading>` (or `#^block`) is read as the link
 * `[[title#heading]]` is, and lands on that place as a click on the link does. A title no
 * note has offers to create that note, as a click does.
 */
export async function openWikiAddress(address: string): Promise<void> {
  const asked: Route = { view: 'wiki', title: address };
  // The user went elsewhere while the title was looked up: that place stays.
  const stillAsked = () => sameRoute(currentRoute(), asked);
  const { title, fragment } = splitWikilinkTarget(address);
  try {
    if (title === '' && fragment !== null) {
      // `#/wiki/#Heading`, as `[[#Heading]]`: a place in the note already open.
      navigate(notesRoute({ noteId: editor.noteId }), { replace: true });
      if (editor.noteId) revealFragment(editor.noteId, fragment);
      return;
    }
    const target = await core.links.resolve(title);
    if (!stillAsked()) return;
    if (target) {
      navigate(notesRoute({ noteId: target.note_id }), { replace: true });
      if (fragment === null) return;
      // The address opens the note (its route is applied above); awaiting the same open, as a
      // click does, gives the note's own text to find the place in once it is shown.
      await openNote(target.note_id);
      revealFragment(target.note_id, fragment);
      return;
    }
    const create = await offerToCreate(title);
    if (!stillAsked()) return;
    if (!create) {
      navigate(notesRoute({ noteId: editor.noteId }), { replace: true });
      return;
    }
    const note = await core.notes.create({ title, folder: '' });
    await refreshAll();
    if (stillAsked()) navigate(notesRoute({ noteId: note.note_id }), { replace: true });
  } catch (error) {
    reportError(error);
  }
}

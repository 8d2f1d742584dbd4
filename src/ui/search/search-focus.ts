import { tick } from 'svelte';
import { openModals } from '../dialogs/open-modals.svelte';
import { layout } from '../layout.svelte';
import { navigate } from '../navigation';
import { notes } from '../notes/notes.svelte';
import { notesRoute } from '../router';
import { SEARCH_INPUT_ID } from './result-keys';
import { search } from './search.svelte';

/** The search box, once the notebook's list shows it (it is only in All notes, not in the Trash). */
function searchBox(): HTMLInputElement | null {
  const input = document.getElementById(SEARCH_INPUT_ID);
  return input instanceof HTMLInputElement ? input : null;
}

/**
 * The keyboard goes to the search box from wherever it is: another view, the Trash or the
 * editor. The notebook's list comes back as it was left (its filters, a search typed), and the
 * query already there is selected, so typing replaces it.
 */
export async function focusSearch(): Promise<void> {
  // A dialog keeps the keyboard (the page behind it is inert): nothing changes behind it.
  if (openModals.top !== null) return;
  if (layout.view !== 'notes' || notes.view !== 'notes') {
    const inTrash = notes.view === 'trash';
    navigate(
      search.active
        ? { view: 'search', query: search.query }
        : notesRoute({ folder: inTrash ? null : notes.folder, tag: inTrash ? null : notes.tag }),
    );
  }
  // On a phone the list and the editor share the screen: the box is in the list.
  layout.showPane('list');
  await tick();
  const input = searchBox();
  input?.focus();
  input?.select();
}

/** Searches the notes' text for the query (the search results view), the keyboard in the box. */
export async function searchNotesFor(query: string): Promise<void> {
  navigate({ view: 'search', query });
  await tick();
  const input = searchBox();
  input?.focus();
  input?.setSelectionRange(input.value.length, input.value.length);
}

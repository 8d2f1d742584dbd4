import { tick } from 'svelte';
import type { AfterRemoval } from '../notes/next-note-after-trash';
import { notes } from '../notes/notes.svelte';

/**
 * The open note left the list (moved to the trash, or restored out of it) by `button`, which
 * goes with the note or stays on the next: the keyboard moves on to the neighbour's row in the
 * list, or to the empty list's way on, never to the page's body, where a screen reader starts
 * again from the top. Left alone when the user has put the focus somewhere else meanwhile.
 */
export async function moveFocusAfterRemoval(after: AfterRemoval, button: HTMLElement): Promise<void> {
  await tick();
  const active = document.activeElement;
  if (active !== null && active !== document.body && active !== button) return;
  if (after.kind === 'next') notes.requestFocus({ kind: 'row', noteId: after.noteId });
  else if (after.kind === 'empty') notes.requestFocus({ kind: 'empty' });
  else focusPane();
}

/**
 * No neighbour known (the note was opened from a search or a link): the pane the note was in,
 * or where the panes are stacked and that pane is gone, the note list shown instead.
 */
function focusPane(): void {
  const main = document.getElementById('main-content');
  const list = document.querySelector<HTMLElement>('[data-testid="note-list"]');
  const target = main?.checkVisibility() ? main : list?.checkVisibility() ? list : null;
  if (!target) return;
  if (!target.hasAttribute('tabindex')) target.tabIndex = -1;
  target.focus();
}

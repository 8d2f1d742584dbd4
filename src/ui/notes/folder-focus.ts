import { tick } from 'svelte';
import type { Attachment } from 'svelte/attachments';
import { notes } from './notes.svelte';

/**
 * A folder just made, renamed or moved takes the focus in the sidebar tree: the
 * form that made it is gone, and the keyboard would otherwise start again from
 * the top of the page.
 */
export async function focusFolderItem(path: string): Promise<void> {
  notes.revealFolder(path);
  await tick();
  const items = document.querySelectorAll<HTMLElement>('[data-testid="folder-item"]');
  Array.from(items)
    .find((item) => item.dataset.folder === path)
    ?.focus();
}

/**
 * A field opened by a button takes the focus at once. The `autofocus`
 * attribute would not: Svelte honours it only while nothing else has the
 * focus, and the button just pressed has it.
 */
export const focusOnMount: Attachment<HTMLElement> = (element) => {
  element.focus();
};

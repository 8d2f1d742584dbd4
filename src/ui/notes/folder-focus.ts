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
  const item = folderItem(path);
  if (item) {
    item.focus();
    return;
  }
  // The sidebar refresh awaited was overtaken by a newer one (start-up's, say) that draws the
  // folder a moment later: it takes the focus then, unless the user went somewhere meanwhile.
  const observer = new MutationObserver(() => {
    const active = document.activeElement;
    if (active !== null && active !== document.body) {
      stop();
      return;
    }
    const found = folderItem(path);
    if (!found) return;
    stop();
    found.focus();
  });
  const stop = (): void => {
    observer.disconnect();
    document.removeEventListener('focusin', stop);
  };
  document.addEventListener('focusin', stop);
  observer.observe(document.body, { childList: true, subtree: true });
}

function folderItem(path: string): HTMLElement | undefined {
  const items = document.querySelectorAll<HTMLElement>('[data-testid="folder-item"]');
  return Array.from(items).find((item) => item.dataset.folder === path);
}

/**
 * A field opened by a button takes the focus at once. The `autofocus`
 * attribute would not: Svelte honours it only while nothing else has the
 * focus, and the button just pressed has it.
 */
export const focusOnMount: Attachment<HTMLElement> = (element) => {
  element.focus();
};

/**
 * A field opened for a change takes the focus with the part to change selected
 * (typing replaces it); without a range the caret goes to the end of what is there.
 */
export function focusWithSelection(range: readonly [number, number] | null): Attachment<HTMLInputElement> {
  return (input) => {
    input.focus();
    const end = input.value.length;
    input.setSelectionRange(range?.[0] ?? end, range?.[1] ?? end);
  };
}

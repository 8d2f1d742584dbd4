/**
 * Keyboard movement between the search box and its results, as the note list
 * has: the results are buttons in one list, so the box and the list share ids.
 */
export const SEARCH_INPUT_ID = 'search-input';
export const SEARCH_RESULTS_ID = 'search-results-list';

/** Where a key moves the focus among `count` results from `index`: -1 is the search box. */
export function resultKeyTarget(key: string, index: number, count: number): number | null {
  if (count === 0) return null;
  switch (key) {
    case 'ArrowDown':
      return Math.min(count - 1, index + 1);
    case 'ArrowUp':
      return index - 1;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    case 'Escape':
      return -1;
    default:
      return null;
  }
}

/** Every button of the results in reading order: each hit, and the "more in this note" toggles. */
function resultButtons(): HTMLElement[] {
  const list = document.getElementById(SEARCH_RESULTS_ID);
  return list ? Array.from(list.querySelectorAll<HTMLElement>('button:not([disabled])')) : [];
}

/** The first result takes the focus (ArrowDown in the box, a page turned). True when there was one. */
export function focusFirstResult(options?: FocusOptions): boolean {
  const [first] = resultButtons();
  first?.focus(options);
  return first !== undefined;
}

/** A key on a result: arrows, Home and End move between results; ArrowUp past the first or Escape go back to the box. */
export function onResultKeydown(event: KeyboardEvent): void {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || event.isComposing) return;
  const buttons = resultButtons();
  const index = buttons.indexOf(event.target as HTMLElement);
  if (index < 0) return;
  const target = resultKeyTarget(event.key, index, buttons.length);
  if (target === null) return;
  event.preventDefault();
  // Escape here means "back to the query", not the app's other Escape actions.
  if (event.key === 'Escape') event.stopPropagation();
  if (target < 0) document.getElementById(SEARCH_INPUT_ID)?.focus();
  else buttons[target]?.focus();
}

export type Shortcut = 'save' | 'new-note' | 'command-palette';

type KeyInfo = Pick<
  KeyboardEvent,
  'key' | 'code' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey' | 'isComposing'
>;

/**
 * Ctrl/⌘+S saves; Ctrl/⌘+K opens the command palette; Alt+N makes a new note (Chrome does not let pages take
 * Ctrl+N). `code` is checked so non-Latin keyboard layouts and macOS Option
 * characters (Option+N types "˜") still match.
 */
export function matchShortcut(event: KeyInfo): Shortcut | null {
  if (event.isComposing) return null;
  const primary = event.ctrlKey || event.metaKey;
  if (
    primary &&
    !event.altKey &&
    !event.shiftKey &&
    (event.code === 'KeyS' || event.key.toLowerCase() === 's')
  ) {
    return 'save';
  }
  if (
    primary &&
    !event.altKey &&
    !event.shiftKey &&
    (event.code === 'KeyK' || event.key.toLowerCase() === 'k')
  ) {
    return 'command-palette';
  }
  if (
    event.altKey &&
    !primary &&
    !event.shiftKey &&
    (event.code === 'KeyN' || event.key.toLowerCase() === 'n')
  ) {
    return 'new-note';
  }
  return null;
}

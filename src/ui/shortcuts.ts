import type { MessageKey } from './i18n';

export type Shortcut =
  'save' | 'new-note' | 'command-palette' | 'focus-search' | 'keyboard-shortcuts' | 'undo-delete';

type KeyInfo = Pick<
  KeyboardEvent,
  'key' | 'code' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey' | 'isComposing'
>;

/** A key that the whole app answers, wherever the focus is (App's window key handler). */
export interface ShortcutSpec {
  id: Shortcut;
  /** Ctrl, or ⌘ on a Mac. */
  primary: boolean;
  alt: boolean;
  /** Shift too (a letter shortcut only); without it, Shift must not be held. */
  shift?: boolean;
  /**
   * The physical key (`KeyboardEvent.code`) and the letter it types on a Latin layout. No code:
   * the shortcut is the character, wherever the layout puts it (Shift included, as German
   * QWERTZ types "/" with Shift+7).
   */
  code?: string;
  key: string;
  /** What it does, as the keyboard shortcuts dialog says it. */
  description: MessageKey;
  /** Outside text fields only: in one the key stays the field's own. */
  outsideTextFields?: boolean;
}

/**
 * The one table of the app's shortcuts: `matchShortcut` answers keys from it and the keyboard
 * shortcuts dialog lists it, so the two cannot drift apart. Alt+N, not Ctrl+N: Chrome does not
 * let pages take Ctrl+N.
 */
export const SHORTCUTS: readonly ShortcutSpec[] = [
  { id: 'save', primary: true, alt: false, code: 'KeyS', key: 's', description: 'shortcuts.key.save' },
  {
    id: 'new-note',
    primary: false,
    alt: true,
    code: 'KeyN',
    key: 'n',
    description: 'shortcuts.key.newNote',
  },
  {
    id: 'command-palette',
    primary: true,
    alt: false,
    code: 'KeyK',
    key: 'k',
    description: 'shortcuts.key.commandPalette',
  },
  {
    // Ctrl+F stays the browser's find in page, and CodeMirror's default keymap has no Shift+F.
    id: 'focus-search',
    primary: true,
    alt: false,
    shift: true,
    code: 'KeyF',
    key: 'f',
    description: 'findNotes.focusSearchKey',
  },
  {
    id: 'keyboard-shortcuts',
    primary: true,
    alt: false,
    // By the character: the key US keyboards type "/" with types "-" on German QWERTZ, and
    // Ctrl+- is the browser's zoom out.
    key: '/',
    description: 'shortcuts.key.keyboardShortcuts',
  },
  {
    id: 'undo-delete',
    primary: true,
    alt: false,
    code: 'KeyZ',
    key: 'z',
    description: 'shortcuts.key.undoDelete',
    outsideTextFields: true,
  },
];

/**
 * The shortcut a key press means, or null. A letter's `code` is checked so non-Latin keyboard
 * layouts and macOS Option characters (Option+N types "˜") still match; Shift is held only for
 * one that asks for it. A shortcut without a code is matched by the character typed, with or
 * without Shift.
 */
export function matchShortcut(event: KeyInfo): Shortcut | null {
  if (event.isComposing) return null;
  const primary = event.ctrlKey || event.metaKey;
  const found = SHORTCUTS.find(
    (spec) =>
      spec.primary === primary &&
      spec.alt === event.altKey &&
      (spec.code === undefined
        ? event.key === spec.key
        : event.shiftKey === (spec.shift ?? false) &&
          (event.code === spec.code || event.key.toLowerCase() === spec.key)),
  );
  return found?.id ?? null;
}

/** Whether the platform's primary modifier is ⌘ (a Mac) rather than Ctrl. */
export function usesCommandKey(platform: string): boolean {
  return /mac|iphone|ipad/i.test(platform);
}

/** The keys as printed for a person: "Ctrl+S", "Alt+N", "Ctrl+Shift+F"; "⌘S", "⌥N", "⌘⇧F" on a Mac. */
export function shortcutKeys(spec: ShortcutSpec, mac: boolean): string[] {
  const keys: string[] = [];
  if (spec.primary) keys.push(mac ? '⌘' : 'Ctrl');
  if (spec.alt) keys.push(mac ? '⌥' : 'Alt');
  if (spec.shift) keys.push(mac ? '⇧' : 'Shift');
  keys.push(spec.key.toUpperCase());
  return keys;
}

/** The `aria-keyshortcuts` value: both the Ctrl and the ⌘ form of a primary-key shortcut. */
export function ariaKeyShortcuts(spec: ShortcutSpec): string {
  const key = `${spec.shift ? 'Shift+' : ''}${spec.key.toUpperCase()}`;
  if (spec.primary) return `Control+${key} Meta+${key}`;
  return spec.alt ? `Alt+${key}` : key;
}

import { describe, expect, it } from 'vitest';
import { ariaKeyShortcuts, matchShortcut, SHORTCUTS, shortcutKeys, usesCommandKey } from './shortcuts';

const key = (overrides: Partial<Parameters<typeof matchShortcut>[0]>) => ({
  key: '',
  code: '',
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  isComposing: false,
  ...overrides,
});

describe('matchShortcut', () => {
  it('matches Ctrl+S and Cmd+S', () => {
    expect(matchShortcut(key({ key: 's', code: 'KeyS', ctrlKey: true }))).toBe('save');
    expect(matchShortcut(key({ key: 'S', code: 'KeyS', metaKey: true }))).toBe('save');
    expect(matchShortcut(key({ key: 'ы', code: 'KeyS', ctrlKey: true }))).toBe('save');
  });

  it('matches Ctrl+K and Cmd+K for the command palette', () => {
    expect(matchShortcut(key({ key: 'k', code: 'KeyK', ctrlKey: true }))).toBe('command-palette');
    expect(matchShortcut(key({ key: 'K', code: 'KeyK', metaKey: true }))).toBe('command-palette');
    expect(matchShortcut(key({ key: 'k', code: 'KeyK', ctrlKey: true, shiftKey: true }))).toBeNull();
  });

  it('matches Ctrl+Shift+F and Cmd+Shift+F for the search box, and not Ctrl+F', () => {
    expect(matchShortcut(key({ key: 'F', code: 'KeyF', ctrlKey: true, shiftKey: true }))).toBe(
      'focus-search',
    );
    expect(matchShortcut(key({ key: 'F', code: 'KeyF', metaKey: true, shiftKey: true }))).toBe(
      'focus-search',
    );
    expect(matchShortcut(key({ key: 'А', code: 'KeyF', ctrlKey: true, shiftKey: true }))).toBe(
      'focus-search',
    );
    expect(matchShortcut(key({ key: 'f', code: 'KeyF', ctrlKey: true }))).toBeNull();
    expect(matchShortcut(key({ key: 'S', code: 'KeyS', ctrlKey: true, shiftKey: true }))).toBeNull();
  });

  it('matches Alt+N, including the macOS Option character', () => {
    expect(matchShortcut(key({ key: 'n', code: 'KeyN', altKey: true }))).toBe('new-note');
    expect(matchShortcut(key({ key: '˜', code: 'KeyN', altKey: true }))).toBe('new-note');
  });

  it('ignores plain typing, other combinations and IME composition', () => {
    expect(matchShortcut(key({ key: 's', code: 'KeyS' }))).toBeNull();
    expect(matchShortcut(key({ key: 'n', code: 'KeyN', ctrlKey: true }))).toBeNull();
    expect(matchShortcut(key({ key: 's', code: 'KeyS', ctrlKey: true, isComposing: true }))).toBeNull();
  });
});

describe('the shortcut table', () => {
  it('answers every key it lists, so the shortcuts dialog and the key handler agree', () => {
    for (const spec of SHORTCUTS) {
      const event = key({
        key: spec.key,
        code: spec.code ?? '',
        ctrlKey: spec.primary,
        altKey: spec.alt,
        shiftKey: spec.shift ?? false,
      });
      expect(matchShortcut(event)).toBe(spec.id);
    }
    expect(new Set(SHORTCUTS.map((spec) => spec.id)).size).toBe(SHORTCUTS.length);
  });

  it('matches Ctrl+/ for the keyboard shortcuts and Ctrl+Z for undoing a deletion', () => {
    expect(matchShortcut(key({ key: '/', code: 'Slash', ctrlKey: true }))).toBe('keyboard-shortcuts');
    expect(matchShortcut(key({ key: 'z', code: 'KeyZ', metaKey: true }))).toBe('undo-delete');
    expect(matchShortcut(key({ key: 'z', code: 'KeyZ', ctrlKey: true, shiftKey: true }))).toBeNull();
  });

  it('opens the keyboard shortcuts on the "/" a German keyboard types, and leaves Ctrl+- to zoom', () => {
    // German QWERTZ: "/" is Shift+7, and the key where US keyboards have "/" types "-".
    expect(matchShortcut(key({ key: '/', code: 'Digit7', ctrlKey: true, shiftKey: true }))).toBe(
      'keyboard-shortcuts',
    );
    expect(matchShortcut(key({ key: '-', code: 'Slash', ctrlKey: true }))).toBeNull();
    // US: Ctrl+Shift+/ types "?", which is not the shortcut.
    expect(matchShortcut(key({ key: '?', code: 'Slash', ctrlKey: true, shiftKey: true }))).toBeNull();
  });

  it('prints the keys for a person, with the Mac symbols on a Mac', () => {
    const save = SHORTCUTS.find((spec) => spec.id === 'save')!;
    const newNote = SHORTCUTS.find((spec) => spec.id === 'new-note')!;
    expect(shortcutKeys(save, false)).toEqual(['Ctrl', 'S']);
    expect(shortcutKeys(save, true)).toEqual(['⌘', 'S']);
    expect(shortcutKeys(newNote, false)).toEqual(['Alt', 'N']);
    expect(ariaKeyShortcuts(save)).toBe('Control+S Meta+S');
    expect(ariaKeyShortcuts(newNote)).toBe('Alt+N');
    const focusSearch = SHORTCUTS.find((spec) => spec.id === 'focus-search')!;
    expect(shortcutKeys(focusSearch, false)).toEqual(['Ctrl', 'Shift', 'F']);
    expect(shortcutKeys(focusSearch, true)).toEqual(['⌘', '⇧', 'F']);
    expect(ariaKeyShortcuts(focusSearch)).toBe('Control+Shift+F Meta+Shift+F');
    expect(usesCommandKey('MacIntel')).toBe(true);
    expect(usesCommandKey('Linux x86_64')).toBe(false);
  });
});

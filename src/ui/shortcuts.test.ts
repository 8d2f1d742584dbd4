import { describe, expect, it } from 'vitest';
import { matchShortcut } from './shortcuts';

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

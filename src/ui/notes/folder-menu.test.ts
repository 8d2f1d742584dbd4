import { describe, expect, it } from 'vitest';
import {
  folderMenuCommands,
  folderName,
  opensContextMenu,
  renameSelection,
  rowAfterRemoval,
} from './folder-menu';

const key = (
  key: string,
  mods: Partial<Record<'shiftKey' | 'altKey' | 'ctrlKey' | 'metaKey', boolean>> = {},
) => ({
  key,
  shiftKey: false,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  ...mods,
});

describe('folder menu', () => {
  it('offers moving to the top level only for a folder inside another, and deleting last', () => {
    expect(folderMenuCommands('Beta')).toEqual(['new-inside', 'rename', 'move', 'delete']);
    expect(folderMenuCommands('Beta/Inner')).toEqual([
      'new-inside',
      'rename',
      'move',
      'move-to-top',
      'delete',
    ]);
  });

  it('names a folder by the last part of its path', () => {
    expect(folderName('Beta/Inner')).toBe('Inner');
    expect(folderName('课程')).toBe('课程');
  });

  it('selects the name to rename and the folders above to move', () => {
    expect(renameSelection('Beta/Inner', 'rename')).toEqual([5, 10]);
    expect(renameSelection('Beta', 'rename')).toEqual([0, 4]);
    expect(renameSelection('a/b/c', 'move')).toEqual([0, 3]);
    expect(renameSelection('Beta', 'move')).toEqual([0, 0]);
  });

  it('opens on Shift+F10 and the Menu key, not on F10 alone or with Ctrl', () => {
    expect(opensContextMenu(key('F10', { shiftKey: true }))).toBe(true);
    expect(opensContextMenu(key('ContextMenu'))).toBe(true);
    expect(opensContextMenu(key('F10'))).toBe(false);
    expect(opensContextMenu(key('F10', { shiftKey: true, ctrlKey: true }))).toBe(false);
  });
});

describe('the row after a folder is deleted', () => {
  const before = ['Alpha', 'Courses', 'Courses/OS', 'Other'];

  it('is the next row still shown, past the folders inside it', () => {
    expect(rowAfterRemoval(before, 'Courses', new Set(['Alpha', 'Other']))).toBe('Other');
  });

  it('is the nearest row above when none is left below, skipping a parent that went with it', () => {
    expect(rowAfterRemoval(['a', 'a/b'], 'a/b', new Set())).toBeNull();
    expect(rowAfterRemoval(['x', 'a', 'a/b'], 'a/b', new Set(['x']))).toBe('x');
  });

  it('is none when no folder is left', () => {
    expect(rowAfterRemoval(['Only'], 'Only', new Set())).toBeNull();
  });
});

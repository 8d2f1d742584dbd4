import { describe, expect, it } from 'vitest';
import { folderMenuCommands, folderName, opensContextMenu, renameSelection } from './folder-menu';

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

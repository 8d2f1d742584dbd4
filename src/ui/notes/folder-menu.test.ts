import { describe, expect, it } from 'vitest';
import {
  folderMenuCommands,
  folderName,
  menuPlacement,
  opensContextMenu,
  renameSelection,
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
  it('offers moving to the top level only for a folder inside another', () => {
    expect(folderMenuCommands('Beta')).toEqual(['new-inside', 'rename', 'move']);
    expect(folderMenuCommands('Beta/Inner')).toEqual(['new-inside', 'rename', 'move', 'move-to-top']);
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

  it('keeps the menu inside the window', () => {
    const menu = { width: 180, height: 150 };
    expect(menuPlacement(100, 100, menu, { width: 1280, height: 800 })).toEqual({ x: 100, y: 100 });
    expect(menuPlacement(300, 800, menu, { width: 390, height: 844 })).toEqual({ x: 202, y: 686 });
    expect(menuPlacement(-5, 2, menu, { width: 390, height: 844 })).toEqual({ x: 8, y: 8 });
  });
});

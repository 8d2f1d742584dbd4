import { describe, expect, it } from 'vitest';
import { buildFolderTree } from './folder-tree';
import { folderTreeAction, visibleFolderRows } from './folder-tree-keys';

const tree = buildFolderTree([
  { path: '大学/课程', note_count: 1 },
  { path: '大学/课程/操作系统', note_count: 1 },
  { path: 'Archive', note_count: 0 },
  { path: 'work', note_count: 2 },
]);

describe('visibleFolderRows', () => {
  it('lists rows top to bottom with their level, leaving out what a collapsed folder holds', () => {
    const open = visibleFolderRows(tree, () => false);
    expect(open.map((row) => [row.path, row.level, row.parent])).toEqual([
      ['Archive', 1, null],
      ['work', 1, null],
      ['大学', 1, null],
      ['大学/课程', 2, '大学'],
      ['大学/课程/操作系统', 3, '大学/课程'],
    ]);
    const folded = visibleFolderRows(tree, (path) => path === '大学/课程');
    expect(folded.map((row) => row.path)).toEqual(['Archive', 'work', '大学', '大学/课程']);
    expect(folded[3]).toMatchObject({ hasChildren: true, expanded: false });
    expect(folded[0]).toMatchObject({ hasChildren: false, expanded: false });
  });
});

describe('folderTreeAction', () => {
  const rows = visibleFolderRows(tree, (path) => path === '大学/课程');

  it('moves up and down, to the first and the last row, and stops at the ends', () => {
    expect(folderTreeAction(rows, 'work', 'ArrowDown')).toEqual({ kind: 'focus', path: '大学' });
    expect(folderTreeAction(rows, 'work', 'ArrowUp')).toEqual({ kind: 'focus', path: 'Archive' });
    expect(folderTreeAction(rows, 'Archive', 'ArrowUp')).toBeNull();
    expect(folderTreeAction(rows, '大学/课程', 'ArrowDown')).toBeNull();
    expect(folderTreeAction(rows, 'work', 'Home')).toEqual({ kind: 'focus', path: 'Archive' });
    expect(folderTreeAction(rows, 'work', 'End')).toEqual({ kind: 'focus', path: '大学/课程' });
  });

  it('Right expands a closed folder, then enters it; Left collapses, then goes to the parent', () => {
    expect(folderTreeAction(rows, '大学/课程', 'ArrowRight')).toEqual({ kind: 'expand', path: '大学/课程' });
    expect(folderTreeAction(rows, '大学', 'ArrowRight')).toEqual({ kind: 'focus', path: '大学/课程' });
    expect(folderTreeAction(rows, 'work', 'ArrowRight')).toBeNull();
    expect(folderTreeAction(rows, '大学', 'ArrowLeft')).toEqual({ kind: 'collapse', path: '大学' });
    expect(folderTreeAction(rows, '大学/课程', 'ArrowLeft')).toEqual({ kind: 'focus', path: '大学' });
    expect(folderTreeAction(rows, 'work', 'ArrowLeft')).toBeNull();
  });

  it('Enter and Space open the folder, F2 renames it, Delete deletes it, a letter finds the next name with it', () => {
    expect(folderTreeAction(rows, 'work', 'Enter')).toEqual({ kind: 'open', path: 'work' });
    expect(folderTreeAction(rows, 'work', ' ')).toEqual({ kind: 'open', path: 'work' });
    expect(folderTreeAction(rows, 'work', 'F2')).toEqual({ kind: 'rename', path: 'work' });
    expect(folderTreeAction(rows, '大学/课程', 'Delete')).toEqual({ kind: 'delete', path: '大学/课程' });
    expect(folderTreeAction(rows, 'work', 'a')).toEqual({ kind: 'focus', path: 'Archive' });
    expect(folderTreeAction(rows, 'Archive', '大')).toEqual({ kind: 'focus', path: '大学' });
    expect(folderTreeAction(rows, 'work', 'Tab')).toBeNull();
    expect(folderTreeAction(rows, 'gone', 'ArrowDown')).toBeNull();
  });
});

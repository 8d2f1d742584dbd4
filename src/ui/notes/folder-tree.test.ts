import { describe, expect, it } from 'vitest';
import { ancestorPaths, buildFolderTree, canMoveFolder, movedFolderPath } from './folder-tree';

describe('buildFolderTree', () => {
  it('nests paths and keeps the recursive counts the core reports', () => {
    const tree = buildFolderTree([
      { path: 'work/projects', note_count: 2 },
      { path: 'work', note_count: 3 },
      { path: '', note_count: 9 },
    ]);
    expect(tree).toHaveLength(1);
    expect(tree[0]).toMatchObject({ name: 'work', path: 'work', noteCount: 3 });
    expect(tree[0]?.children[0]).toMatchObject({ name: 'projects', path: 'work/projects', noteCount: 2 });
  });

  it('creates unlisted parents with the sum of their children', () => {
    const tree = buildFolderTree([
      { path: 'personal/日记', note_count: 4 },
      { path: 'personal/读书', note_count: 1 },
    ]);
    expect(tree[0]).toMatchObject({ name: 'personal', noteCount: 5 });
    expect(tree[0]?.children.map((child) => child.name)).toHaveLength(2);
  });

  it('sorts numerically and ignores stray slashes', () => {
    const tree = buildFolderTree([
      { path: 'n10', note_count: 1 },
      { path: '/n2/', note_count: 1 },
    ]);
    expect(tree.map((node) => node.path)).toEqual(['n2', 'n10']);
  });
});

describe('ancestorPaths', () => {
  it('lists every parent', () => {
    expect(ancestorPaths('a/b/c')).toEqual(['a', 'a/b']);
    expect(ancestorPaths('a')).toEqual([]);
  });
});

describe('moving folders', () => {
  it('puts a folder under a new parent by its name', () => {
    expect(movedFolderPath('a/b', 'x/y')).toBe('x/y/b');
    expect(movedFolderPath('a/b', '')).toBe('b');
    expect(movedFolderPath('课程', '归档')).toBe('归档/课程');
  });

  it('refuses itself, its descendants and the parent it is in', () => {
    expect(canMoveFolder('a', 'a')).toBe(false);
    expect(canMoveFolder('a', 'a/b')).toBe(false);
    expect(canMoveFolder('a/b', 'a')).toBe(false);
    expect(canMoveFolder('a', '')).toBe(false);
    expect(canMoveFolder('a/b', '')).toBe(true);
    expect(canMoveFolder('a', 'ab')).toBe(true);
  });
});

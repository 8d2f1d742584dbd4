import { describe, expect, it } from 'vitest';
import {
  MIN_MATCHING_BODY_CHARS,
  bodyMatchKey,
  bodyShapeKey,
  originPairs,
  reimportDiffers,
  uniqueKeyPairs,
} from './markdown-archive-matching';

const LONG = '进程调度决定哪个就绪进程下一个占用 CPU，常见算法有先来先服务、短作业优先和时间片轮转。\n';

describe('bodyMatchKey', () => {
  it('gives one key for the same text in the same folder, whatever the title was', () => {
    expect(bodyMatchKey('课程/操作系统', LONG)).toBe(bodyMatchKey('课程/操作系统', LONG));
    expect(bodyMatchKey('课程/操作系统', LONG)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('tells apart the same text in two folders, and two texts in one folder', () => {
    expect(bodyMatchKey('a', LONG)).not.toBe(bodyMatchKey('b', LONG));
    expect(bodyMatchKey('a', LONG)).not.toBe(bodyMatchKey('a', `${LONG}更多。\n`));
  });

  it('gives no key for empty, blank or short bodies such as "TODO" or a bare heading', () => {
    expect(bodyMatchKey('a', '')).toBeNull();
    expect(bodyMatchKey('a', '   \n\n\t')).toBeNull();
    expect(bodyMatchKey('a', 'TODO\n')).toBeNull();
    expect(bodyMatchKey('a', '# 进程调度\n')).toBeNull();
    // Blank characters do not count towards the length: spacing is no text.
    const justShort = `${'x '.repeat(MIN_MATCHING_BODY_CHARS - 1)}\n\n\n`;
    expect(bodyMatchKey('a', justShort)).toBeNull();
    expect(bodyMatchKey('a', `${justShort}y`)).not.toBeNull();
  });
});

describe('bodyShapeKey', () => {
  it('differs by folder and by length', () => {
    expect(bodyShapeKey('a', 10)).toBe(bodyShapeKey('a', 10));
    expect(bodyShapeKey('a', 10)).not.toBe(bodyShapeKey('a', 11));
    expect(bodyShapeKey('a', 10)).not.toBe(bodyShapeKey('b', 10));
  });
});

describe('uniqueKeyPairs', () => {
  it('pairs a key held once on each side', () => {
    const pairs = uniqueKeyPairs(
      ['k1', 'k2'],
      [
        { note_id: 'note_a', key: 'k1' },
        { note_id: 'note_b', key: 'other' },
      ],
    );
    expect([...pairs]).toEqual([['k1', 'note_a']]);
  });

  it('pairs nothing for a null key (a text too short to be a key)', () => {
    expect(uniqueKeyPairs([null, null], [{ note_id: 'note_a', key: null }]).size).toBe(0);
  });

  it('pairs nothing when no notebook note holds the key', () => {
    expect(uniqueKeyPairs(['k1'], [{ note_id: 'note_a', key: 'k2' }]).size).toBe(0);
    expect(uniqueKeyPairs(['k1'], []).size).toBe(0);
  });

  it('pairs nothing for a key two notes, or two archive files, share', () => {
    expect(
      uniqueKeyPairs(
        ['k1'],
        [
          { note_id: 'note_a', key: 'k1' },
          { note_id: 'note_b', key: 'k1' },
        ],
      ).size,
    ).toBe(0);
    expect(uniqueKeyPairs(['k1', 'k1'], [{ note_id: 'note_a', key: 'k1' }]).size).toBe(0);
  });

  it('counts one note seen twice as one', () => {
    const pairs = uniqueKeyPairs(
      ['k1'],
      [
        { note_id: 'note_a', key: 'k1' },
        { note_id: 'note_a', key: 'k1' },
      ],
    );
    expect(pairs.get('k1')).toBe('note_a');
  });
});

describe('originPairs', () => {
  it('pairs a path with the live note last imported from it, never a trashed or deleted one', () => {
    const rows = [
      { note_id: 'note_cpu', source_path: '操作系统/进程调度.md' },
      { note_id: 'note_trashed', source_path: '操作系统/死锁.md' },
      { note_id: 'note_gone', source_path: '操作系统/虚拟内存.md' },
    ];
    const pairs = originPairs(rows, new Set(['note_cpu', 'note_other']));
    expect([...pairs]).toEqual([['操作系统/进程调度.md', 'note_cpu']]);
  });

  it('gives a note to one path only', () => {
    const rows = [
      { note_id: 'note_a', source_path: 'a.md' },
      { note_id: 'note_a', source_path: 'b.md' },
    ];
    expect([...originPairs(rows, new Set(['note_a']))]).toEqual([['a.md', 'note_a']]);
  });
});

describe('reimportDiffers', () => {
  const imported = { title: '进程调度', folder: '操作系统', body_hash: 'h-imported' };

  it('counts a text edited in the vault, here, or on both sides', () => {
    const renamedHere = { ...imported, title: 'CPU 调度' };
    expect(reimportDiffers(renamedHere, { ...imported, body_hash: 'h-vault' }, imported)).toBe(true);
    expect(reimportDiffers({ ...imported, body_hash: 'h-here' }, imported, imported)).toBe(true);
    expect(
      reimportDiffers({ ...imported, body_hash: 'h-here' }, { ...imported, body_hash: 'h-vault' }, imported),
    ).toBe(true);
  });

  it('does not count a rename or a move made here alone: updating would only undo it', () => {
    expect(reimportDiffers({ ...imported, title: 'CPU 调度', folder: '归档' }, imported, imported)).toBe(
      false,
    );
    expect(reimportDiffers(imported, imported, imported)).toBe(false);
  });

  it('counts a title the vault changed since the import', () => {
    expect(reimportDiffers(imported, { ...imported, title: '进程调度算法' }, imported)).toBe(true);
  });

  it('counts any difference when the import left no record', () => {
    expect(reimportDiffers({ ...imported, title: 'CPU 调度' }, imported, null)).toBe(true);
    expect(reimportDiffers(imported, imported, null)).toBe(false);
  });
});

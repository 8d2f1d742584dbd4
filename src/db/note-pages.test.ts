import { describe, expect, it } from 'vitest';
import { parseBlocks } from '../core/blocks';
import { parseWikilinks } from '../core/wikilinks';
import { bodyFromBlocks, pagedSize, planPages } from './note-pages';

describe('planPages', () => {
  const size = (n: number) => n;

  it('fills pages up to the character and row bounds, in order', () => {
    expect(planPages([3, 3, 3, 3], size, 6, 10)).toEqual([
      [3, 3],
      [3, 3],
    ]);
    expect(planPages([1, 1, 1, 1, 1], size, 100, 2)).toEqual([[1, 1], [1, 1], [1]]);
  });

  it('puts an item larger than the bound on a page of its own', () => {
    expect(planPages([1, 50, 1], size, 10, 10)).toEqual([[1], [50], [1]]);
  });

  it('has no page for no items', () => {
    expect(planPages([], size, 10, 10)).toEqual([]);
  });

  it('counts a note by the part a page loop reads of it', () => {
    expect(pagedSize({ body_length: 500 })).toBe(500);
    expect(pagedSize({ body_length: 500 }, 100)).toBe(100);
    expect(pagedSize({ body_length: 50 }, 100)).toBe(50);
  });
});

describe('bodyFromBlocks', () => {
  it('puts each block at its own line, so links keep their lines and contexts', () => {
    const body =
      '---\ntitle: x\n---\n# Head [[A]]\n\n\ntext with [[B]]\nmore\n\n```\n[[not a link]]\n```\n\n[[C]] last';
    const rebuilt = bodyFromBlocks(parseBlocks(body));
    const lines = (text: string) => text.split('\n');
    const found = parseWikilinks(rebuilt).map((link) => link.target);
    expect(found).toEqual(['A', 'B', 'C']);
    // Every block line is where it was in the note.
    for (const [index, line] of lines(rebuilt).entries()) {
      if (line !== '') expect(lines(body)[index]).toBe(line);
    }
  });

  it('gives the start of a body from its first blocks only', () => {
    const blocks = parseBlocks('one\n\ntwo\n\nthree');
    expect(bodyFromBlocks(blocks.slice(0, 2))).toBe('one\n\ntwo');
    expect(bodyFromBlocks([])).toBe('');
  });
});

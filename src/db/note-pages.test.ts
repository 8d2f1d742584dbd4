import { describe, expect, it } from 'vitest';
import { parseBlocks } from '../core/blocks';
import { parseWikilinks } from '../core/wikilinks';
import { blocksWithin, bodyFromBlocks, pagedSize, plannedNotePages, planPages } from './note-pages';

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

describe('blocksWithin', () => {
  const blocks = parseBlocks('one\n\ntwo\n\nthree');

  it('keeps the leading blocks whose rebuilt body fits, and that body', () => {
    expect(blocksWithin(blocks, 8)).toEqual({ blocks: blocks.slice(0, 2), body: 'one\n\ntwo' });
    expect(blocksWithin(blocks, 7).body).toBe('one');
    expect(blocksWithin(blocks, 100)).toEqual({ blocks, body: bodyFromBlocks(blocks) });
  });

  it('keeps nothing when the first block alone is too long', () => {
    expect(blocksWithin(blocks, 2)).toEqual({ blocks: [], body: '' });
  });
});

describe('plannedNotePages', () => {
  const sizes = new Map([
    ['a', 3],
    ['b', 3],
    ['c', 50],
    ['d', 1],
    ['e', 1],
  ]);
  const sizesOf = async (ids: string[]) =>
    ids.map((id) => (sizes.has(id) ? { note_id: id, body_length: sizes.get(id)! } : undefined));
  const collect = async (ids: string[], options: Parameters<typeof plannedNotePages>[2]) => {
    const pages: string[][] = [];
    for await (const page of plannedNotePages(ids, sizesOf, options)) pages.push(page);
    return pages;
  };

  it('looks sizes up a row bound at a time and plans each slice, leaving missing notes out', async () => {
    expect(await collect(['a', 'b', 'gone', 'c', 'd', 'e'], { pageChars: 6, pageRows: 3 })).toEqual([
      ['a', 'b'],
      ['c'],
      ['d', 'e'],
    ]);
  });

  it('counts a long note by what is read of it', async () => {
    expect(await collect(['a', 'c', 'd'], { pageChars: 10, pageRows: 10, maxBodyChars: 4 })).toEqual([
      ['a', 'c', 'd'],
    ]);
  });

  it('stops between pages once cancelled', async () => {
    const controller = new AbortController();
    const pages: string[][] = [];
    const run = (async () => {
      for await (const page of plannedNotePages(['a', 'b', 'c'], sizesOf, {
        pageChars: 3,
        signal: controller.signal,
      })) {
        pages.push(page);
        controller.abort(new Error('cancelled'));
      }
    })();
    await expect(run).rejects.toThrow('cancelled');
    expect(pages).toEqual([['a']]);
  });
});

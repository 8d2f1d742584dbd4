import { describe, expect, it } from 'vitest';
import { parseBlocks } from '../../core/blocks';
import { seededRandom } from '../../core/seeded-random';
import { BlockSplitter, type SplitBlock } from './block-splitter';

const SAMPLE = [
  '---\ntitle: Sample\n---',
  '# Heading',
  'A paragraph with $x^2$ and a [link][ref].\nIts second line.',
  '- one\n- two\n\n- three (loose)',
  '1. first\n2. second',
  '> quoted\nlazy line',
  '```js\nconst a = 1;\n\nconst b = 2;\n```',
  '```mermaid\ngraph TD\n  A --> B\n```',
  '$$\n\\sum_k k\n$$',
  '| a | b |\n| - | - |\n| 1 | 2 |',
  'Setext heading\n===',
  '<div>\nraw html\n</div>',
  '[ref]: https://example.com',
  '    indented code',
  '***',
  '- [ ] task\n- [x] done',
  'Last paragraph.',
].join('\n\n');

// Pieces typed or pasted into the note: each can open, close or merge blocks.
const PIECES = [
  'x',
  ' ',
  '\n',
  '\n\n',
  '```',
  '~~~',
  '- ',
  '1. ',
  '> ',
  '| c |',
  '$$',
  '---',
  '===',
  '# ',
  '<div>',
  '[r]: /u',
  '    ',
  '\n- item\n',
  '\n```\ncode',
];

function withoutOffsets(blocks: readonly SplitBlock[]): unknown[] {
  return blocks.map(({ offset: _offset, ...block }) => block);
}

function expectSameAsWholeParse(splitter: BlockSplitter, text: string): void {
  const blocks = splitter.split(text);
  expect(withoutOffsets(blocks)).toEqual(parseBlocks(text));
  for (const block of blocks)
    expect(text.slice(block.offset, block.offset + block.text.length)).toBe(block.text);
}

describe('BlockSplitter', () => {
  it('cuts a note as parseBlocks does, with each block at its offset', () => {
    expectSameAsWholeParse(new BlockSplitter(), SAMPLE);
  });

  it('gives the same blocks as a whole parse after every one of many random edits', () => {
    const next = seededRandom(20261202);
    const splitter = new BlockSplitter();
    let text = SAMPLE;
    splitter.split(text);
    for (let step = 0; step < 600; step += 1) {
      const at = Math.floor(next() * (text.length + 1));
      if (next() < 0.35 && text.length > 0) {
        const length = 1 + Math.floor(next() * 12);
        text = text.slice(0, at) + text.slice(at + length);
      } else {
        text = text.slice(0, at) + PIECES[Math.floor(next() * PIECES.length)]! + text.slice(at);
      }
      // Keep the note from growing without bound; a reset is itself an edit.
      if (text.length > 3 * SAMPLE.length) text = SAMPLE;
      expectSameAsWholeParse(splitter, text);
    }
  });

  it('parses only around a keystroke in a long note', () => {
    const paragraphs = Array.from({ length: 2000 }, (_, i) => `Paragraph ${i} about threads and memory.`);
    const note = paragraphs.join('\n\n');
    const splitter = new BlockSplitter();
    splitter.split(note);
    const before = splitter.parsedChars;
    const middle = note.indexOf('Paragraph 1000 ') + 'Paragraph 1000'.length;
    const typed = `${note.slice(0, middle)}x${note.slice(middle)}`;
    const blocks = splitter.split(typed);
    expect(blocks[1000]!.text).toBe('Paragraph 1000x about threads and memory.');
    expect(blocks).toHaveLength(2000);
    expect(splitter.parsedChars - before).toBeLessThan(500);
    expectSameAsWholeParse(new BlockSplitter(), typed);
  });

  it('re-parses the rest of the note when an opened fence swallows it', () => {
    const note = ['Intro', 'Middle', 'End'].join('\n\n');
    const splitter = new BlockSplitter();
    splitter.split(note);
    const fenced = note.replace('Middle', '```\nMiddle');
    expect(splitter.split(fenced).map((block) => block.type)).toEqual(['paragraph', 'code']);
  });

  it('parses a note whole when it has CR line breaks', () => {
    const splitter = new BlockSplitter();
    splitter.split('One\r\n\r\nTwo');
    expect(withoutOffsets(splitter.split('One\r\n\r\nTwo!'))).toEqual(parseBlocks('One\r\n\r\nTwo!'));
  });
});

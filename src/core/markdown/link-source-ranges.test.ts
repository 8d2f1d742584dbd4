import { describe, expect, it } from 'vitest';
import { codeEndAt, linkSourceRanges, type SourceRange } from './link-source-ranges';

const texts = (body: string, ranges: readonly SourceRange[]) =>
  ranges.map(({ from, to }) => body.slice(from, to));

describe('linkSourceRanges', () => {
  it('finds fenced and indented code at any depth, and code spans near links, in source order', () => {
    const body = [
      '---',
      'related:',
      '',
      '    - "[[In front matter]]"',
      '---',
      '> [!note]',
      '> ```js',
      '> a',
      '> ```',
      '',
      '- item',
      '  - nested `span` [[L]]',
      '    ~~~',
      '    b',
      '    ~~~',
      '',
      'Text.',
      '',
      '    indented',
      '',
      '| `x` | `x` [[L]] |',
      '| --- | --- |',
      '',
      '# A `heading` [[L]]',
      'A `span over',
      'two lines` and `one` [a](A.md)',
      '',
      'No link: `not looked for`',
    ].join('\n');
    expect(texts(body, linkSourceRanges(body).code)).toEqual([
      '> ```js\n> a\n> ```',
      '`span`',
      '    ~~~\n    b\n    ~~~',
      '    indented',
      '`x`',
      '`heading`',
      '`span over\ntwo lines`',
      '`one`',
    ]);
    // The cell with the link, not the one before it with the same text.
    const cell = linkSourceRanges(body).code[4]!;
    expect(cell.from).toBe(body.indexOf('`x` [[L]]'));
  });

  it('finds reference definitions, not those in code, with offsets of CRLF and BOM notes', () => {
    const body =
      '\uFEFF`one` [[L]]\r\n\r\n> [a]: <A.md> "t"\r\n\r\n```\r\n[b]: B.md\r\n```\r\n[c]:\r\n  C.md';
    const ranges = linkSourceRanges(body);
    expect(texts(body, ranges.code)).toEqual(['`one`', '```\r\n[b]: B.md\r\n```']);
    expect(texts(body, ranges.definitions)).toEqual(['> [a]: <A.md> "t"', '[c]:\r\n  C.md']);
  });

  it('parses inline only the blocks with a backtick and a link, on a 1 MB note', () => {
    const block = [
      '## Section with `code` and [[Link]]',
      '',
      'A paragraph with [a link](Note%20(2).md) and `a span` and more text to fill the line.',
      '',
      '> [!tip]',
      '> ```',
      '> [[In code]]',
      '> ```',
      '',
      '- item `x`',
      '',
      '[ref]: Other.md',
      '',
    ].join('\n');
    const body = block.repeat(Math.ceil(1_000_000 / block.length));
    const probe = { inlineParses: 0 };
    const ranges = linkSourceRanges(body, probe);
    const blocks = Math.ceil(1_000_000 / block.length);
    expect(ranges.code).toHaveLength(blocks * 3);
    expect(ranges.definitions).toHaveLength(blocks);
    // The heading and the paragraph; not the list item (no link) nor anything else.
    expect(probe.inlineParses).toBe(blocks * 2);
  });
});

describe('codeEndAt', () => {
  it('tells the end of the range holding each offset, asked in order', () => {
    const endAt = codeEndAt([
      { from: 2, to: 4 },
      { from: 6, to: 9 },
    ]);
    expect([0, 2, 3, 4, 6, 8, 9, 20].map(endAt)).toEqual([-1, 4, 4, -1, 9, 9, -1, -1]);
  });
});

describe('linkSourceRanges on code in alt text and escaped pipes', () => {
  it('leaves out code in an image description (plain text there), and keeps the spans around it', () => {
    const body = 'See `a` [[Old]]. ![`cmd`](shot.png) and `b` [x](Y.md)';
    expect(texts(body, linkSourceRanges(body).code)).toEqual(['`a`', '`b`']);
  });

  it('finds code spans in table cells with escaped pipes', () => {
    const body = [
      '| a | b |',
      '| --- | --- |',
      '| [[Old]] | `ls \\| wc` see [[Other]] |',
      '| `x\\|y\\|z` [[A]] | `w` [[B]] |',
    ].join('\n');
    expect(texts(body, linkSourceRanges(body).code)).toEqual(['`ls \\| wc`', '`x\\|y\\|z`', '`w`']);
  });
});

import { describe, expect, it } from 'vitest';
import { parseBlocks } from './blocks';
import { headingPathText, headingPaths, headingTitle } from './heading-path';

/** Each block's first line beside its heading path, for a body cut as the app cuts it. */
function pathsOf(markdown: string): Array<[string, string]> {
  const blocks = parseBlocks(markdown);
  const paths = headingPaths(blocks);
  return blocks.map((block, index) => [block.text.split('\n')[0]!, headingPathText(paths[index]!)]);
}

describe('headingPaths', () => {
  it('gives each block the nearest heading and its parents, outermost first', () => {
    const body = [
      'Before any heading.',
      '# Scheduling',
      'Intro to scheduling.',
      '## Round robin',
      'Each process gets a time slice.',
      '### Quantum',
      'Ten to a hundred milliseconds.',
      '## Shortest job first',
      'Needs the burst lengths.',
      '# Memory',
      'Pages and frames.',
    ].join('\n\n');
    expect(pathsOf(body)).toEqual([
      ['Before any heading.', ''],
      ['# Scheduling', ''],
      ['Intro to scheduling.', 'Scheduling'],
      ['## Round robin', 'Scheduling'],
      ['Each process gets a time slice.', 'Scheduling › Round robin'],
      ['### Quantum', 'Scheduling › Round robin'],
      ['Ten to a hundred milliseconds.', 'Scheduling › Round robin › Quantum'],
      ['## Shortest job first', 'Scheduling'],
      ['Needs the burst lengths.', 'Scheduling › Shortest job first'],
      ['# Memory', ''],
      ['Pages and frames.', 'Memory'],
    ]);
  });

  it('skips levels a note leaves out, and a later shallower heading closes the deeper ones', () => {
    expect(pathsOf('## Two\n\n#### Four\n\nDeep.\n\n### Three\n\nMiddle.')).toEqual([
      ['## Two', ''],
      ['#### Four', 'Two'],
      ['Deep.', 'Two › Four'],
      ['### Three', 'Two'],
      ['Middle.', 'Two › Three'],
    ]);
  });

  it('reads setext headings and levels from the Markdown when a block has no stored level', () => {
    const blocks = parseBlocks('Title\n=====\n\nSection\n-------\n\nText.\n\n# Next\n\nMore.').map(
      ({ level: _level, ...block }) => block,
    );
    expect(headingPaths(blocks).map((path) => headingPathText(path))).toEqual([
      '',
      'Title',
      'Title › Section',
      '',
      'Next',
    ]);
  });

  it('shows headings as a reader sees them, and an empty heading closes sections without a name', () => {
    expect(pathsOf('# **Bold** [link](https://example.com) `code`\n\nText.\n\n#\n\nAfter.')).toEqual([
      ['# **Bold** [link](https://example.com) `code`', ''],
      ['Text.', 'Bold link code'],
      ['#', ''],
      ['After.', ''],
    ]);
    expect(headingTitle('## 进程  调度\n')).toBe('进程 调度');
  });
});

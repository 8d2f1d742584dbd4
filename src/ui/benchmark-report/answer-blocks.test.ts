import { describe, expect, it } from 'vitest';
import { answerGroups, headingOfLabel } from './answer-blocks';

const block = (label: string, index: number) => ({ block_id: `b${index}`, label });
const blocks = (...labels: string[]) => labels.map(block);

describe('headingOfLabel', () => {
  it('reads ATX headings with their level and words', () => {
    expect(headingOfLabel('# Scheduling')).toEqual({ level: 1, title: 'Scheduling' });
    expect(headingOfLabel('### Round robin ###')).toEqual({ level: 3, title: 'Round robin' });
    expect(headingOfLabel('##')).toEqual({ level: 2, title: '' });
  });

  it('reads setext headings, folded onto one line', () => {
    expect(headingOfLabel('Scheduling ===')).toEqual({ level: 1, title: 'Scheduling' });
    expect(headingOfLabel('Round robin ---')).toEqual({ level: 2, title: 'Round robin' });
  });

  it('takes tags, paragraphs, lists and rules for what they are', () => {
    expect(headingOfLabel('#os #draft')).toBeNull();
    expect(headingOfLabel('#######  seven is too many')).toBeNull();
    expect(headingOfLabel('Each process gets a time slice.')).toBeNull();
    expect(headingOfLabel('- first - second ---')).toBeNull();
    expect(headingOfLabel('---')).toBeNull();
    expect(headingOfLabel('C# is a language.')).toBeNull();
  });
});

describe('answerGroups', () => {
  it('offers no heading, and groups the blocks under their heading path', () => {
    const groups = answerGroups(
      blocks(
        'Intro before any heading.',
        '# Scheduling',
        'The scheduler picks the next process.',
        '## Round robin',
        'Each process gets a time slice.',
        'The slice is 10 ms.',
        '# Memory',
        'A TLB caches page table entries.',
      ),
    );
    expect(groups).toEqual([
      { section: null, blocks: [block('Intro before any heading.', 0)] },
      { section: 'Scheduling', blocks: [block('The scheduler picks the next process.', 2)] },
      {
        section: 'Scheduling › Round robin',
        blocks: [block('Each process gets a time slice.', 4), block('The slice is 10 ms.', 5)],
      },
      { section: 'Memory', blocks: [block('A TLB caches page table entries.', 7)] },
    ]);
    const offered = groups.flatMap((group) => group.blocks.map((entry) => entry.label));
    expect(offered.some((label) => label.startsWith('#'))).toBe(false);
  });

  it('makes no group for a heading with nothing under it', () => {
    expect(answerGroups(blocks('# Empty', '# Full', 'Text.'))).toEqual([
      { section: 'Full', blocks: [block('Text.', 2)] },
    ]);
    expect(answerGroups(blocks('# Only a heading'))).toEqual([]);
  });

  it('names a section by the headings with words only', () => {
    expect(answerGroups(blocks('# Top', '##', 'Under an empty heading.'))).toEqual([
      { section: 'Top', blocks: [block('Under an empty heading.', 2)] },
    ]);
    expect(answerGroups(blocks('#', 'Text.'))).toEqual([{ section: null, blocks: [block('Text.', 1)] }]);
  });
});

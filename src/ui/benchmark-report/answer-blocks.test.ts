import { describe, expect, it } from 'vitest';
import type { BenchmarkBlockChoiceDto } from '../../contracts/benchmark';
import { answerGroups } from './answer-blocks';

let next = 0;
const text = (label: string): BenchmarkBlockChoiceDto => ({
  block_id: `b${next++}`,
  label,
  type: 'paragraph',
  answerable: true,
});
const heading = (level: number, label: string): BenchmarkBlockChoiceDto => ({
  block_id: `b${next++}`,
  label,
  type: 'heading',
  level,
  answerable: false,
});

describe('answerGroups', () => {
  it('offers no heading, and groups the blocks under their heading path', () => {
    const intro = text('Intro before any heading.');
    const picks = text('The scheduler picks the next process.');
    const slice = text('Each process gets a time slice.');
    const ms = text('The slice is 10 ms.');
    const tlb = text('A TLB caches page table entries.');
    const groups = answerGroups([
      intro,
      heading(1, 'Scheduling'),
      picks,
      heading(2, 'Round robin'),
      slice,
      ms,
      heading(1, 'Memory'),
      tlb,
    ]);
    expect(groups).toEqual([
      { section: null, blocks: [intro] },
      { section: 'Scheduling', blocks: [picks] },
      { section: 'Scheduling › Round robin', blocks: [slice, ms] },
      { section: 'Memory', blocks: [tlb] },
    ]);
  });

  it('goes by the type, not by a `#` in the text: code and tags that start with one are no heading', () => {
    const code: BenchmarkBlockChoiceDto = { ...text('# build the kernel first'), type: 'code' };
    const under = text('make is run twice.');
    const groups = answerGroups([heading(1, 'Build'), code, under]);
    expect(groups).toEqual([{ section: 'Build', blocks: [code, under] }]);
  });

  it('leaves out blocks with nothing to answer, and a heading with only those under it makes no group', () => {
    const tags: BenchmarkBlockChoiceDto = { ...text('#math #exam-week'), answerable: false };
    const rule: BenchmarkBlockChoiceDto = { ...text('---'), type: 'rule', answerable: false };
    const real = text('Eigenvalues solve det(A − λI) = 0.');
    expect(answerGroups([heading(1, 'Tags'), tags, rule, heading(1, 'Algebra'), real])).toEqual([
      { section: 'Algebra', blocks: [real] },
    ]);
  });

  it('makes no group for a heading with nothing under it', () => {
    const body = text('Text.');
    expect(answerGroups([heading(1, 'Empty'), heading(1, 'Full'), body])).toEqual([
      { section: 'Full', blocks: [body] },
    ]);
    expect(answerGroups([heading(1, 'Only a heading')])).toEqual([]);
  });

  it('names a section by the headings with words only', () => {
    const under = text('Under an empty heading.');
    expect(answerGroups([heading(1, 'Top'), heading(2, ''), under])).toEqual([
      { section: 'Top', blocks: [under] },
    ]);
    const body = text('Text.');
    expect(answerGroups([heading(1, ''), body])).toEqual([{ section: null, blocks: [body] }]);
  });
});

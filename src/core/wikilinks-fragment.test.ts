import { describe, expect, it } from 'vitest';
import { fragmentLine } from './wikilinks-fragment';

const body = [
  '# Target',
  '',
  'Intro text.',
  '',
  '## Second heading ##',
  'A paragraph with an id ^para-1',
  '```md',
  '## Hidden',
  'code ^in-code',
  '```',
  '### Hidden',
  '中文 段落',
  '## 中文 标题',
].join('\n');

describe('fragmentLine', () => {
  it('finds a heading by its text, ignoring case, spacing and closing #s', () => {
    expect(fragmentLine(body, 'Second heading')).toBe(4);
    expect(fragmentLine(body, '  second   HEADING ')).toBe(4);
    expect(fragmentLine(body, '中文 标题')).toBe(12);
  });

  it('takes the last part of a nested heading path', () => {
    expect(fragmentLine(body, 'Target#Second heading')).toBe(4);
  });

  it('finds a block by its ^id', () => {
    expect(fragmentLine(body, '^para-1')).toBe(5);
  });

  it('skips fenced code: the heading after the fence is the one found', () => {
    expect(fragmentLine(body, 'Hidden')).toBe(10);
    expect(fragmentLine(body, '^in-code')).toBeNull();
  });

  it('is null for a place the note does not have', () => {
    expect(fragmentLine(body, 'No such heading')).toBeNull();
    expect(fragmentLine(body, '^missing')).toBeNull();
    expect(fragmentLine(body, '')).toBeNull();
    expect(fragmentLine(body, 'Intro text.')).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import type { ChatCitationDto } from '../../contracts/chat';
import { linkCitations } from './citations';

const citation = (index: number): ChatCitationDto => ({
  index,
  note_id: `n${index}`,
  block_id: `b${index}`,
  title: 'T',
  snippet: 's',
  start_line: 0,
});

describe('linkCitations', () => {
  it('links the markers of known sources only', () => {
    expect(linkCitations('See [1] and [3].', [citation(1), citation(2)])).toBe(
      'See [\\[1\\]](#citation-1) and [3].',
    );
  });

  it('leaves content alone without citations, and existing links alone', () => {
    expect(linkCitations('See [1].', [])).toBe('See [1].');
    expect(linkCitations('[1](http://x)\n[1]: http://ref', [citation(1)])).toBe(
      '[1](http://x)\n[1]: http://ref',
    );
    expect(linkCitations('March [1][2], not `a[1]`', [citation(1), citation(2)])).toBe(
      'March [\\[1\\]](#citation-1)[\\[2\\]](#citation-2), not `a[1]`',
    );
  });

  it('names each link after its source, as HTML, with the name escaped', () => {
    const named = { ...citation(1), title: 'Whale "blue" <note>' };
    expect(linkCitations('See [1].', [named], (item) => `Source ${item.index}: ${item.title}`)).toBe(
      'See <a href="#citation-1" aria-label="Source 1: Whale &quot;blue&quot; &lt;note&gt;">\\[1\\]</a>.',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { citedIndices, replaceCitationMarkers, splitBySourceUse } from './citation-markers';

const sources = [1, 2, 3, 4].map((index) => ({ index }));
const mark = (content: string) =>
  replaceCitationMarkers(content, new Set([1, 2, 3]), (index) => `<${index}>`);

describe('replaceCitationMarkers', () => {
  it('replaces known markers only, however the model runs them together', () => {
    expect(mark('a [1] b [9]')).toBe('a <1> b [9]');
    expect(mark('In March [1][2], see also [3].')).toBe('In March <1><2>, see also <3>.');
    expect(mark('节日在三月[2]。')).toBe('节日在三月<2>。');
  });

  it('leaves links, defined references and escaped brackets alone', () => {
    expect(mark('[1](http://x) \\[2] [3]\n\n[3]: http://y')).toBe('[1](http://x) \\[2] [3]\n\n[3]: http://y');
  });

  it('leaves code alone: spans, fenced blocks, and a fence left open', () => {
    expect(mark('Use `arr[1]` as in [2].')).toBe('Use `arr[1]` as in <2>.');
    expect(mark('``a`[1]`` and [1]')).toBe('``a`[1]`` and <1>');
    expect(mark('See [1]:\n\n```js\nx[2] = y[3];\n```\nThen [3].')).toBe(
      'See <1>:\n\n```js\nx[2] = y[3];\n```\nThen <3>.',
    );
    expect(mark('~~~\n[1]\n~~~~\n[2]\n```\n[3]')).toBe('~~~\n[1]\n~~~~\n<2>\n```\n[3]');
    expect(mark('An unclosed ` tick [1]')).toBe('An unclosed ` tick <1>');
  });
});

describe('citedIndices', () => {
  it('lists the cited known numbers in the order given, once each', () => {
    expect(citedIndices('See [3], then [1] and [3] again; [9] is unknown.', [1, 2, 3])).toEqual([1, 3]);
  });
});

describe('splitBySourceUse', () => {
  it('keeps the cited sources and sets the rest apart', () => {
    const { cited, uncited } = splitBySourceUse('Answer [4] and `[2]`.', sources);
    expect(cited.map((source) => source.index)).toEqual([4]);
    expect(uncited.map((source) => source.index)).toEqual([1, 2, 3]);
  });

  it('hides nothing when the answer cites none of the sources', () => {
    expect(splitBySourceUse('No markers here.', sources)).toEqual({ cited: sources, uncited: [] });
    expect(splitBySourceUse('Only [7].', sources).uncited).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { parseBlocks } from '../blocks';
import { footnoteDefinitionLabel, footnoteLinks, referencedLabels } from './footnote-links';

/** The citations of a note written as Markdown, as block texts: citing block → cited definitions. */
function citations(markdown: string): Array<[string, string[]]> {
  const blocks = parseBlocks(markdown);
  const { cites } = footnoteLinks(blocks);
  return blocks.flatMap((block, index): Array<[string, string[]]> => {
    const cited = cites[index] ?? [];
    return cited.length === 0
      ? []
      : [[block.text, cited.map((definition) => blocks[definition]?.text ?? '')]];
  });
}

describe('footnoteLinks', () => {
  it('links a claim to the footnote it cites, the definition a block of its own', () => {
    const markdown = 'Intro.\n\nRoman concrete grew stronger in seawater.[^1]\n\n[^1]: Jackson et al. 2017.';
    expect(parseBlocks(markdown).map((block) => block.text)).toEqual([
      'Intro.',
      'Roman concrete grew stronger in seawater.[^1]',
      '[^1]: Jackson et al. 2017.',
    ]);
    expect(citations(markdown)).toEqual([
      ['Roman concrete grew stronger in seawater.[^1]', ['[^1]: Jackson et al. 2017.']],
    ]);
  });

  it('links every footnote of a block, in the order it cites them, each once', () => {
    const markdown = 'A claim.[^b] Another.[^a] Again.[^b]\n\n[^a]: Source A.\n\n[^b]: Source B.';
    expect(citations(markdown)).toEqual([
      ['A claim.[^b] Another.[^a] Again.[^b]', ['[^b]: Source B.', '[^a]: Source A.']],
    ]);
  });

  it('links a footnote cited by two blocks to both', () => {
    const markdown = 'First claim.[^1]\n\n- a list item citing it[^1]\n\n[^1]: The one source.';
    expect(citations(markdown)).toEqual([
      ['First claim.[^1]', ['[^1]: The one source.']],
      ['- a list item citing it[^1]', ['[^1]: The one source.']],
    ]);
  });

  it('links nothing for a reference with no definition in the note', () => {
    expect(citations('A claim.[^missing]\n\n[^1]: Defined but not cited.')).toEqual([]);
    expect(citations('A claim.[^1] with no footnotes at all.')).toEqual([]);
  });

  it('does not take footnote syntax in code for footnotes', () => {
    const markdown = [
      'Uses `[^1]` as an example.',
      '```md\nA claim.[^1]\n\n[^1]: not a definition, code\n```',
      '- item\n\n  ```\n  text[^1]\n  ```',
      'Escaped \\[^1] is text.',
      '[^1]: The real one.',
    ].join('\n\n');
    const blocks = parseBlocks(markdown);
    expect(blocks.map((block) => block.type)).toEqual([
      'paragraph',
      'code',
      'list',
      'paragraph',
      'paragraph',
    ]);
    expect(footnoteLinks(blocks).cites).toEqual([[], [], [], [], []]);
    expect(footnoteLinks(blocks).definitions).toEqual(new Map([['1', 4]]));
  });

  it('works on Chinese text, with named labels', () => {
    const markdown = '都江堰至今仍在灌溉成都平原。[^史记]\n\n[^史记]: 据《史记·河渠书》记载，李冰主持修建。';
    expect(citations(markdown)).toEqual([
      ['都江堰至今仍在灌溉成都平原。[^史记]', ['[^史记]: 据《史记·河渠书》记载，李冰主持修建。']],
    ]);
  });

  it('keeps the first definition of a label defined twice', () => {
    const blocks = parseBlocks('Claim.[^1]\n\n[^1]: First.\n\n[^1]: Second.');
    expect(footnoteLinks(blocks).cites[0]).toEqual([1]);
  });
});

describe('footnoteDefinitionLabel and referencedLabels', () => {
  it('reads a definition only from a paragraph that starts with one', () => {
    expect(footnoteDefinitionLabel({ type: 'paragraph', text: '[^note-1]: text' })).toBe('note-1');
    expect(footnoteDefinitionLabel({ type: 'paragraph', text: 'Not [^1]: a definition' })).toBeUndefined();
    expect(footnoteDefinitionLabel({ type: 'code', text: '[^1]: in code' })).toBeUndefined();
  });

  it('finds no references in a definition, in code or in math', () => {
    expect(referencedLabels({ type: 'paragraph', text: '[^1]: see also[^2]' })).toEqual([]);
    expect(referencedLabels({ type: 'math', text: '$$x[^1]$$' })).toEqual([]);
    expect(referencedLabels({ type: 'quote', text: '> quoted claim[^q]' })).toEqual(['q']);
  });
});

import { describe, expect, it } from 'vitest';
import { parseMarkdownNoteLinks } from './wikilinks-markdown';

describe('parseMarkdownNoteLinks', () => {
  it('finds Markdown links to notes, decoded, with their place', () => {
    const body = 'See [a](Note%2010.md) and [b](Folder/Deep.md#Part%20Two "t") and [c](<Other note.md>).';
    expect(parseMarkdownNoteLinks(body).map(({ target, fragment }) => ({ target, fragment }))).toEqual([
      { target: 'Note 10.md', fragment: null },
      { target: 'Folder/Deep.md', fragment: 'Part Two' },
      { target: 'Other note.md', fragment: null },
    ]);
  });

  it('skips web addresses, code spans and fences', () => {
    const body = '[w](https://x.example/a.md) `[c](Code.md)`\n```\n[f](Fenced.md)\n```\n';
    expect(parseMarkdownNoteLinks(body)).toEqual([]);
  });
});

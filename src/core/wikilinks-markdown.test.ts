import { describe, expect, it } from 'vitest';
import { renamingTarget } from './wikilinks';
import {
  parseMarkdownNoteLinks,
  rewriteMarkdownNoteLinks,
  rewriteNoteLinkTargets,
} from './wikilinks-markdown';
import { movedTargets } from './wikilinks-move';

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

describe('rewriteMarkdownNoteLinks', () => {
  const rename = (body: string) => rewriteNoteLinkTargets(body, renamingTarget('Old title', 'New title'));

  it('follows a rename in the style each link was written', () => {
    const body = [
      'See [the old one](Old%20title.md) and [here](folder/Old%20title.md#Part%20Two "tip").',
      'Also [angled](<Old title.md>), [relative](../notes/Old%20title.md#^abc) and [[Old title|wiki]].',
    ].join('\n');
    expect(rename(body)).toEqual({
      body: [
        'See [the old one](New%20title.md) and [here](folder/New%20title.md#Part%20Two "tip").',
        'Also [angled](<New title.md>), [relative](../notes/New%20title.md#^abc) and [[New title|wiki]].',
      ].join('\n'),
      count: 5,
    });
  });

  it('escapes the new name as the link escaped the old one', () => {
    const full = rewriteMarkdownNoteLinks(
      '[a](%E7%AC%94%E8%AE%B0/%E6%97%A7.md) [b](笔记/旧.md) [c](<笔记/旧%20名.md>)',
      () => '笔记/新 (2).md',
    );
    expect(full.body).toBe(
      '[a](%E7%AC%94%E8%AE%B0/%E6%96%B0%20%282%29.md) [b](笔记/新%20%282%29.md) [c](<笔记/新%20%282%29.md>)',
    );
    expect(rewriteMarkdownNoteLinks('[d](<Old.md>)', () => 'C# tips?.md').body).toBe(
      '[d](<C%23 tips%3F.md>)',
    );
    // A link in a quoted front-matter value keeps the value whole.
    expect(rewriteMarkdownNoteLinks('related: "[e](Old.md)"', () => 'Say "hi".md').body).toBe(
      'related: "[e](Say%20%22hi%22.md)"',
    );
  });

  it('leaves other notes, web addresses, code and links `next` keeps', () => {
    const body =
      '[x](Other.md) [w](https://x.example/Old%20title.md) `[c](Old%20title.md)`\n```\n[f](Old%20title.md)\n```';
    expect(rename(body)).toEqual({ body, count: 0 });
    expect(rewriteMarkdownNoteLinks('[k](Old%20title.md)', () => null).count).toBe(0);
  });

  it('follows a move, new folders escaped and the title kept as written', () => {
    const next = (target: string) => movedTargets(target, 'Courses/OS', 'Archive/Old notes')[0] ?? null;
    expect(
      rewriteNoteLinkTargets(
        '[s](Courses/OS/My%20note.md#Intro) [[Courses/OS/My note]] [t](My%20note.md)',
        next,
      ).body,
    ).toBe('[s](Archive/Old%20notes/My%20note.md#Intro) [[Archive/Old notes/My note]] [t](My%20note.md)');
  });
});

describe('Markdown links in code nested in other blocks', () => {
  const body = [
    '> [!tip] A callout',
    '> ```',
    '> [f](Old%20title.md) in the callout’s fence',
    '> ```',
    '',
    '- outer',
    '  - inner',
    '    ~~~',
    '    [f](<Old title.md>) in a nested list’s fence',
    '    ~~~',
    '',
    'Some text.',
    '',
    '    [i](Old%20title.md) in indented code',
    '',
    'A span `that runs',
    'over [s](Old%20title.md) two lines` and [real](Old%20title.md).',
  ].join('\n');

  it('finds only the links outside code', () => {
    expect(parseMarkdownNoteLinks(body).map((link) => link.start)).toEqual([
      body.indexOf('](Old%20title.md).'),
    ]);
  });

  it('rewrites only the links outside code', () => {
    expect(rewriteNoteLinkTargets(body, renamingTarget('Old title', 'New title'))).toEqual({
      body: body.replace('[real](Old%20title.md)', '[real](New%20title.md)'),
      count: 1,
    });
  });
});

describe('Markdown links with parentheses and reference definitions', () => {
  const body = [
    'See [p](Old%20(2).md#Part), [a](<Old (2).md> "tip") and [r][ref].',
    '',
    '[ref]: Old%20(2).md',
    '[angled]: <folder/Old (2).md> "A title"',
    '> [quoted]: ../Old%20%282%29.md',
    '',
    '```',
    '[code]: Old%20(2).md',
    '```',
  ].join('\n');

  it('reads an address with balanced parentheses and each reference definition outside code', () => {
    expect(parseMarkdownNoteLinks(body).map(({ target, fragment }) => [target, fragment])).toEqual([
      ['Old (2).md', 'Part'],
      ['Old (2).md', null],
      ['Old (2).md', null],
      ['folder/Old (2).md', null],
      ['Old (2).md', null],
    ]);
  });

  it('follows a rename, each link in its own style', () => {
    expect(rewriteNoteLinkTargets(body, renamingTarget('Old (2)', 'New (3)'))).toEqual({
      body: [
        'See [p](New%20(3).md#Part), [a](<New (3).md> "tip") and [r][ref].',
        '',
        '[ref]: New%20(3).md',
        '[angled]: <folder/New (3).md> "A title"',
        '> [quoted]: ../New%20%283%29.md',
        '',
        '```',
        '[code]: Old%20(2).md',
        '```',
      ].join('\n'),
      count: 5,
    });
  });

  it('follows a move in a reference definition', () => {
    const next = (target: string) => movedTargets(target, 'Courses/OS', 'Archive')[0] ?? null;
    expect(rewriteNoteLinkTargets("[os]: <Courses/OS/My note.md#Intro> 't'", next).body).toBe(
      "[os]: <Archive/My note.md#Intro> 't'",
    );
  });
});

describe('Markdown links in odd text', () => {
  const rename = (body: string) => rewriteNoteLinkTargets(body, renamingTarget('Old', 'New'));

  it('keeps a link before an image whose description holds code', () => {
    expect(parseMarkdownNoteLinks('[a](Old.md) ![`x`](p.png)').map((link) => link.target)).toEqual([
      'Old.md',
    ]);
  });

  it('reads no link in a title or an angled address, and renames without throwing', () => {
    const titled = '[a](Note.md "see [b](Old.md)")';
    expect(parseMarkdownNoteLinks(titled).map((link) => link.target)).toEqual(['Note.md']);
    expect(rename(titled)).toEqual({ body: titled, count: 0 });
    const angled = '[a](<x](Old.md) z.md>)';
    expect(parseMarkdownNoteLinks(angled).map((link) => link.target)).toEqual(['x](Old.md) z.md']);
    expect(() => rename(angled)).not.toThrow();
  });

  it('reads no link across a blank line, but one across a line break', () => {
    expect(parseMarkdownNoteLinks('See [this](\n\nOld.md)')).toEqual([]);
    expect(rename('See [this](\n\nOld.md)').count).toBe(0);
    expect(rename('See [this](\nOld.md\n"t")').body).toBe('See [this](\nNew.md\n"t")');
  });

  it('does not take a quote mark for the address of a definition on two lines', () => {
    const body = '> [r]:\n> Old.md';
    expect(rename(body).body).toBe('> [r]:\n> New.md');
    expect(rename('> > [r]:\n> > <Old.md>').body).toBe('> > [r]:\n> > <New.md>');
    expect(rename('[r]:\r\n  Old.md').body).toBe('[r]:\r\n  New.md');
  });
});

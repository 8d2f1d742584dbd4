import { describe, expect, it } from 'vitest';
import type { DocumentNode } from '../../contracts/exports';
import { parseBlocks } from '../blocks';
import {
  CALLOUT,
  CALLOUT_DEFAULT_TITLE,
  CALLOUT_FOLD,
  CALLOUT_TITLE,
  HIGHLIGHT,
  parseDocumentAst,
  plainText,
} from './document-ast';
import { imageSizeOfAlt, noteLinkTarget } from './obsidian-syntax';
import { readableText } from './readable-text';
import { noteExcerpt } from './note-excerpt';

function find(root: DocumentNode, type: DocumentNode['type']): DocumentNode[] {
  const found: DocumentNode[] = [];
  const walk = (node: DocumentNode): void => {
    if (node.type === type) found.push(node);
    node.children.forEach(walk);
  };
  walk(root);
  return found;
}

function allText(source: string): string {
  return plainText(parseDocumentAst(source));
}

describe('Obsidian comments', () => {
  it('leaves inline comments out of the document', () => {
    expect(allText('Shown %%a private comment%% too')).toBe('Shown  too');
  });

  it('leaves block comments out, blank lines inside included', () => {
    const source = 'Before\n\n%%\nsecret one\n\nsecret two\n%%\n\nAfter';
    const text = allText(source);
    expect(text).toContain('Before');
    expect(text).toContain('After');
    expect(text).not.toContain('secret');
  });

  it('keeps a comment one block, so a preview that renders block by block hides all of it', () => {
    const blocks = parseBlocks('Before\n\n%%\nsecret one\n\nsecret two\n%%\n\nAfter');
    expect(blocks.map((block) => block.text)).toEqual([
      'Before',
      '%%\nsecret one\n\nsecret two\n%%',
      'After',
    ]);
    expect(allText(blocks[1]!.text)).toBe('');
  });

  it('hides the rest after an unclosed comment, as Obsidian does', () => {
    expect(allText('Shown\n\n%%\nsecret\n\nmore secret')).toBe('Shown');
    expect(allText('Shown %%secret to the end')).toBe('Shown');
  });

  it('keeps %% inside code spans and fences', () => {
    expect(allText('Use `%%x%%` here')).toBe('Use %%x%% here');
    const fence = find(parseDocumentAst('```\n%%\nnot a comment\n%%\n```'), 'code_block');
    expect(fence[0]?.text).toBe('%%\nnot a comment\n%%\n');
  });

  it('keeps comments out of search snippets and note excerpts', () => {
    expect(readableText('Visible %%hidden%% text')).toBe('Visible  text');
    expect(noteExcerpt('%%\nprivate\n%%\n\nPublic words')).toBe('Public words');
  });
});

describe('Obsidian callouts', () => {
  it('turns a marked quote into a callout with its title', () => {
    const root = parseDocumentAst('> [!warning]- Careful now\n> Body text');
    const quote = find(root, 'blockquote')[0]!;
    expect(quote.attributes[CALLOUT]).toBe('warning');
    expect(quote.attributes[CALLOUT_FOLD]).toBe('-');
    const [title, body] = quote.children;
    expect(title?.attributes[CALLOUT_TITLE]).toBe(true);
    expect(title?.children[0]?.type).toBe('strong');
    expect(plainText(title!)).toBe('Careful now');
    expect(plainText(body!)).toBe('Body text');
    expect(allText('> [!warning]- Careful now\n> Body text')).not.toContain('[!');
  });

  it('titles a callout by its kind when it has no title', () => {
    const quote = find(parseDocumentAst('> [!tip]\n> Advice'), 'blockquote')[0]!;
    expect(plainText(quote.children[0]!)).toBe('Tip');
    expect(quote.children[0]!.attributes[CALLOUT_DEFAULT_TITLE]).toBe(true);
    expect(quote.attributes[CALLOUT_FOLD]).toBe('');
    const titled = find(parseDocumentAst('> [!tip] Mine\n> Advice'), 'blockquote')[0]!;
    expect(titled.children[0]!.attributes[CALLOUT_DEFAULT_TITLE]).toBeUndefined();
  });

  it('leaves ordinary quotes alone', () => {
    const quote = find(parseDocumentAst('> [link] text'), 'blockquote')[0]!;
    expect(quote.attributes[CALLOUT]).toBeUndefined();
  });
});

describe('Obsidian highlights and block ids', () => {
  it('reads a highlight as its text, each leaf in it marked', () => {
    expect(allText('A ==bright== word')).toBe('A bright word');
    const root = parseDocumentAst('Plain ==lit **bold** `code`== after');
    const marked = (type: DocumentNode['type']) =>
      find(root, type).map((node) => [node.text, node.attributes[HIGHLIGHT] === true]);
    expect(marked('text')).toEqual([
      ['Plain ', false],
      ['lit ', true],
      ['bold', true],
      [' ', true],
      [' after', false],
    ]);
    expect(marked('code_inline')).toEqual([['code', true]]);
  });

  it('takes a trailing block id out of the text', () => {
    expect(allText('A paragraph ^blk10')).toBe('A paragraph');
    expect(allText('- item ^item-1')).toBe('item');
    expect(allText('Price is 2^10')).toBe('Price is 2^10');
    expect(allText('Use `x ^notid`')).toBe('Use x ^notid');
  });
});

describe('Obsidian embeds', () => {
  it('makes ![[Note]] an embed wikilink without the "!"', () => {
    const root = parseDocumentAst('![[Note 1]]');
    const link = find(root, 'wikilink')[0]!;
    expect(link.attributes['embed']).toBe(true);
    expect(plainText(root)).toBe('Note 1');
  });

  it('leaves picture embeds to the picture handling', () => {
    expect(find(parseDocumentAst('![[photo.png]]'), 'wikilink')[0]?.attributes['embed']).toBeUndefined();
  });
});

describe('Markdown links to notes', () => {
  it('reads a relative .md address as a path-form note target', () => {
    expect(noteLinkTarget('Note%2010.md')).toEqual({ target: 'Note 10.md', fragment: null });
    expect(noteLinkTarget('Folder/Note.md#Heading%20Two')).toEqual({
      target: 'Folder/Note.md',
      fragment: 'Heading Two',
    });
    expect(noteLinkTarget('../Other.md')).toEqual({ target: 'Other.md', fragment: null });
    expect(noteLinkTarget('<Note 10.md>')).toBeNull();
  });

  it('leaves web and other addresses alone', () => {
    expect(noteLinkTarget('https://example.com/README.md')).toBeNull();
    expect(noteLinkTarget('//example.com/a.md')).toBeNull();
    expect(noteLinkTarget('file.txt')).toBeNull();
    expect(noteLinkTarget('#heading')).toBeNull();
  });
});

describe('Obsidian picture sizes', () => {
  it('reads a width, or a width and height, off the end of the alt text', () => {
    expect(imageSizeOfAlt('photo|200')).toEqual({ alt: 'photo', size: { width: 200, height: null } });
    expect(imageSizeOfAlt('A sunset | 200x100')).toEqual({
      alt: 'A sunset',
      size: { width: 200, height: 100 },
    });
    expect(imageSizeOfAlt('|300')).toEqual({ alt: '', size: { width: 300, height: null } });
    expect(imageSizeOfAlt('photo 200')).toBeNull();
    expect(imageSizeOfAlt('a|b')).toBeNull();
    expect(imageSizeOfAlt('photo|0')).toBeNull();
  });

  it('gives the image node the size and the alt text before the "|"', () => {
    const [sized, both, plain] = find(
      parseDocumentAst('![photo|200](a.png) ![Sunset|200x100](b.png) ![2|3 apples](c.png)'),
      'image',
    );
    expect(sized?.attributes).toMatchObject({ alt: 'photo', width: 200 });
    expect(sized?.attributes['height']).toBeUndefined();
    expect(both?.attributes).toMatchObject({ alt: 'Sunset', width: 200, height: 100 });
    expect(plain?.attributes['alt']).toBe('2|3 apples');
    expect(plain?.attributes['width']).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { parseDocumentAst, plainText } from '../core/markdown/document-ast';
import { withCalloutTitles } from './callout-titles';

function titles(source: string, title = 'Note'): string[] {
  const root = withCalloutTitles({ title, root: parseDocumentAst(source), metadata: {} }).root;
  return root.children
    .filter((node) => node.type === 'blockquote')
    .map((quote) => plainText(quote.children[0]!));
}

describe('withCalloutTitles', () => {
  const source = '> [!tip]\n> 先做这个\n\n> [!warning] 自己的标题\n> 正文\n\n> [!recipe]\n> 步骤';

  it('titles untitled callouts in the language the export writes its own words in', () => {
    expect(titles(source, '笔记')).toEqual(['提示', '自己的标题', 'Recipe']);
    expect(titles('> [!tip]\n> Do this first\n\n> [!faq]\n> Asked')).toEqual(['Tip', 'Faq']);
  });

  it('keeps every node without such a callout the same object', () => {
    const document = { title: 'Note', root: parseDocumentAst('Para\n\n> [!tip] Mine\n> x'), metadata: {} };
    expect(withCalloutTitles(document)).toBe(document);
    const mixed = { title: '笔记', root: parseDocumentAst('第一段\n\n> [!tip]\n> 内容'), metadata: {} };
    const titled = withCalloutTitles(mixed);
    expect(titled.root.children[0]).toBe(mixed.root.children[0]);
    expect(titled.root.children[1]!.children[1]).toBe(mixed.root.children[1]!.children[1]);
  });
});

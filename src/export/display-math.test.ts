import { describe, expect, it } from 'vitest';
import type { DocumentNode } from '../contracts/exports';
import { documentFromMarkdown } from '../core/markdown/document-ast';
import { hasDisplayMath, isDisplayFormula, splitAtDisplayMath } from './display-math';

function firstParagraph(markdown: string): DocumentNode {
  const found = documentFromMarkdown(markdown, 'x').root.children.find((node) => node.type === 'paragraph');
  if (!found) throw new Error('no paragraph');
  return found;
}

const shape = (paragraph: DocumentNode) =>
  splitAtDisplayMath(paragraph).map((piece) =>
    'formula' in piece
      ? { formula: piece.formula.text }
      : { text: piece.inline.map((node) => node.text ?? `<${node.type}>`).join('') },
  );

describe('display math in a paragraph line', () => {
  it('cuts the line at $$…$$: the text before, the formula displayed, the text after', () => {
    const paragraph = firstParagraph('公式如下 $$E=mc^2$$ 之后');
    expect(hasDisplayMath(paragraph)).toBe(true);
    expect(shape(paragraph)).toEqual([{ text: '公式如下' }, { formula: 'E=mc^2' }, { text: '之后' }]);
    const formula = paragraph.children.find((node) => node.type === 'math_inline');
    expect(isDisplayFormula(formula!, paragraph)).toBe(true);
  });

  it('drops the line breaks beside the formula, so no blank line is drawn', () => {
    const paragraph = firstParagraph('Before\n$$x^2$$ and\nafter');
    expect(shape(paragraph)).toEqual([
      { text: 'Before' },
      { formula: 'x^2' },
      { text: 'and<soft_break>after' },
    ]);
  });

  it('leaves $…$ inline, and $$…$$ inside emphasis or a table cell in its line', () => {
    const inline = firstParagraph('Energy $E=mc^2$ here.');
    expect(hasDisplayMath(inline)).toBe(false);
    expect(shape(inline)).toEqual([{ text: 'Energy E=mc^2 here.' }]);
    const emphasised = firstParagraph('*see $$x$$ here*');
    expect(hasDisplayMath(emphasised)).toBe(false);
    const table = documentFromMarkdown('| a |\n|---|\n| $$x$$ |', 'x').root.children[0]!;
    const cell = table.children[1]!.children[0]!;
    expect(isDisplayFormula(cell.children[0]!, cell)).toBe(false);
  });

  it('a $$…$$ line of its own between text lines is a math block already', () => {
    const types = documentFromMarkdown('before\n$$x^2$$\nafter', 'x').root.children.map((node) => node.type);
    expect(types).toEqual(['paragraph', 'math_block', 'paragraph']);
  });
});

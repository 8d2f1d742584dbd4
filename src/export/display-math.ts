import type { DocumentNode } from '../contracts/exports';

/**
 * `$$…$$` written inside a paragraph's line (`公式如下 $$E=mc^2$$ 之后`) is display math:
 * the preview renders it with KaTeX's display mode, a block centred on a line of its own
 * between the text before and after it. The exports do the same. Only a formula that is
 * a paragraph's own child is lifted out; one inside a link, an emphasis, a heading or a
 * table cell stays in its line, as the text around it cannot be cut there.
 */
export function isDisplayFormula(node: DocumentNode, parent: DocumentNode | undefined): boolean {
  if (node.type === 'math_block') return true;
  return node.type === 'math_inline' && node.attributes['display'] === true && parent?.type === 'paragraph';
}

export type ParagraphPiece = { inline: DocumentNode[] } | { formula: DocumentNode };

/**
 * A paragraph's inline children cut at its display formulas: the text before, the formula,
 * the text after. Text that is only spaces and line breaks beside a formula is dropped (the
 * line ends there anyway), so no blank line is drawn above or below it.
 */
export function splitAtDisplayMath(paragraph: DocumentNode): ParagraphPiece[] {
  const pieces: ParagraphPiece[] = [];
  let inline: DocumentNode[] = [];
  const flush = () => {
    if (inline.some((node) => !blank(node))) pieces.push({ inline: trimmed(inline) });
    inline = [];
  };
  for (const node of paragraph.children) {
    if (isDisplayFormula(node, paragraph)) {
      flush();
      pieces.push({ formula: node });
    } else {
      inline.push(node);
    }
  }
  flush();
  return pieces;
}

/** Whether a paragraph holds a display formula, so it must be cut. */
export function hasDisplayMath(paragraph: DocumentNode): boolean {
  return paragraph.children.some((node) => isDisplayFormula(node, paragraph));
}

function blank(node: DocumentNode): boolean {
  return (
    node.type === 'soft_break' || node.type === 'line_break' || (node.type === 'text' && !node.text?.trim())
  );
}

/** Without the breaks and the spaces at either end: they stood between the text and the formula. */
function trimmed(nodes: DocumentNode[]): DocumentNode[] {
  let start = 0;
  let end = nodes.length;
  while (start < end && blank(nodes[start]!)) start++;
  while (end > start && blank(nodes[end - 1]!)) end--;
  const out = nodes.slice(start, end);
  const first = out[0];
  if (first?.type === 'text') out[0] = { ...first, text: (first.text ?? '').trimStart() };
  const last = out[out.length - 1];
  if (last?.type === 'text') out[out.length - 1] = { ...last, text: (last.text ?? '').trimEnd() };
  return out;
}

import type { DocumentNode } from '../../contracts/exports';
import { isDisplayFormula } from '../display-math';
import type { WarningList } from '../exporter';
import type { MathDrawing } from './tex-drawing';

function unreadable(format: string, error: unknown): string {
  const reason = error instanceof Error ? error.message.replace(/^KaTeX parse error: /, '') : 'unknown error';
  return `${format}: a formula could not be typeset (${reason}); it is shown as its TeX source.`;
}

/** Every formula, and whether it is displayed (a block, or `$$…$$` in a paragraph's line). */
function mathNodes(root: DocumentNode): Array<{ node: DocumentNode; display: boolean }> {
  const found: Array<{ node: DocumentNode; display: boolean }> = [];
  const visit = (node: DocumentNode, parent: DocumentNode | undefined) => {
    if (node.type === 'math_inline' || node.type === 'math_block') {
      found.push({ node, display: isDisplayFormula(node, parent) });
    } else node.children.forEach((child) => visit(child, node));
  };
  visit(root, undefined);
  return found;
}

/**
 * Every formula of the document typeset for drawing, by node id. MathJax loads
 * only when the note has a formula; a formula it cannot typeset is left out of
 * the map (the writer shows its TeX source) with a warning naming the error.
 */
export async function typesetFormulas(
  root: DocumentNode,
  warnings: WarningList,
  format: string,
  signal?: AbortSignal,
): Promise<Map<string, MathDrawing>> {
  const drawings = new Map<string, MathDrawing>();
  const nodes = mathNodes(root);
  if (nodes.length === 0) return drawings;
  const { texToDrawing } = await import('./tex-drawing');
  for (const { node, display } of nodes) {
    signal?.throwIfAborted();
    try {
      drawings.set(node.node_id, texToDrawing(node.text ?? '', display));
    } catch (error) {
      warnings.add(unreadable(format, error));
    }
  }
  return drawings;
}

/**
 * Every formula as Office Math (OMML) XML, by node id: KaTeX writes MathML (as the
 * HTML export does) and mathml2omml turns it into Word's own math.
 */
export async function formulasAsOmml(
  root: DocumentNode,
  warnings: WarningList,
  format: string,
): Promise<Map<string, string>> {
  const omml = new Map<string, string>();
  const nodes = mathNodes(root);
  if (nodes.length === 0) return omml;
  const { texToOmml } = await import('./tex-omml');
  for (const { node, display } of nodes) {
    try {
      omml.set(node.node_id, texToOmml(node.text ?? '', display));
    } catch (error) {
      warnings.add(unreadable(format, error));
    }
  }
  return omml;
}

/**
 * Every formula as one line of readable text (tex-linear.ts), by node id: the PDF's
 * invisible text over each drawn formula. `covers` says which characters the font
 * has; a formula that cannot be read is left out (typesetFormulas warns of it).
 */
export async function formulasAsText(
  root: DocumentNode,
  covers: (codePoint: number) => boolean,
): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  const nodes = mathNodes(root);
  if (nodes.length === 0) return texts;
  const { texToLinearText } = await import('./tex-linear');
  for (const { node, display } of nodes) {
    try {
      const text = texToLinearText(node.text ?? '', display, covers);
      if (text) texts.set(node.node_id, text);
    } catch {
      // Left to typesetFormulas, which shows the source and warns.
    }
  }
  return texts;
}

import type { DocumentNode } from '../../contracts/exports';
import type { WarningList } from '../exporter';
import type { MathDrawing } from './tex-drawing';

function unreadable(format: string, error: unknown): string {
  const reason = error instanceof Error ? error.message.replace(/^KaTeX parse error: /, '') : 'unknown error';
  return `${format}: a formula could not be typeset (${reason}); it is shown as its TeX source.`;
}

function mathNodes(root: DocumentNode): DocumentNode[] {
  const found: DocumentNode[] = [];
  const visit = (node: DocumentNode) => {
    if (node.type === 'math_inline' || node.type === 'math_block') found.push(node);
    else node.children.forEach(visit);
  };
  visit(root);
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
  for (const node of nodes) {
    signal?.throwIfAborted();
    try {
      drawings.set(node.node_id, texToDrawing(node.text ?? '', node.type === 'math_block'));
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
  for (const node of nodes) {
    try {
      omml.set(node.node_id, texToOmml(node.text ?? '', node.type === 'math_block'));
    } catch (error) {
      warnings.add(unreadable(format, error));
    }
  }
  return omml;
}

import fontkit from '@pdf-lib/fontkit';
import type { PDFDocument } from 'pdf-lib';
import type { DocumentNode } from '../../contracts/exports';
import { walkDocument } from '../../core/markdown/document-ast';
import type { WarningList } from '../exporter';
import type { MonoFont } from './code-block';
import type { FontLoader } from './font-loader';
import type { FontSubsetter } from './font-subset';

/**
 * Computer Modern Typewriter draws ' and ` as curly quotes, which code never means;
 * the CJK font's straight ones are set in their column instead.
 */
const NOT_FROM_MONO = new Set([0x27, 0x60]);

/**
 * Every character the note may set in the monospaced font: its code, and the source
 * of each diagram, plot or formula that is not `drawn`. Empty when there is none.
 */
export function codeText(root: DocumentNode, drawn: (node: DocumentNode) => boolean): string {
  const texts: string[] = [];
  walkDocument(root, (node) => {
    if (node.type === 'code_block' || node.type === 'code_inline') texts.push(node.text ?? '');
    else if (['mermaid', 'function_plot', 'math_block'].includes(node.type) && !drawn(node))
      texts.push(`Formula (TeX)\n${node.text ?? ''}`);
  });
  return texts.join('\n');
}

/**
 * The monospaced font, subset to the code's characters it has, embedded in `pdf`.
 * Without it (not loaded, offline on first use) code is still exported, set in the
 * CJK font on the same column grid, with a warning.
 */
export async function embedMonoFont(
  pdf: PDFDocument,
  load: () => Promise<FontLoader>,
  subset: FontSubsetter,
  text: string,
  warnings: WarningList,
): Promise<MonoFont | undefined> {
  if (!text) return undefined;
  try {
    const bytes = await (await load())();
    const face = fontkit.create(bytes);
    const covers = new Set<number>();
    for (const character of text) {
      const codePoint = character.codePointAt(0) ?? 0;
      if (codePoint >= 0x20 && !NOT_FROM_MONO.has(codePoint) && face.hasGlyphForCodePoint(codePoint))
        covers.add(codePoint);
    }
    if (covers.size === 0) return undefined;
    const font = await pdf.embedFont(await subset(bytes, covers), { subset: false });
    return { font, covers };
  } catch (error) {
    warnings.add(
      `PDF: the monospaced font could not be loaded (${error instanceof Error ? error.message : 'unknown error'}); code is set in the text font.`,
    );
    return undefined;
  }
}

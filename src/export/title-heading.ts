import { plainText } from '../core/markdown/document-ast';
import type { ExportDocument } from '../contracts/exports';

/** Whitespace runs collapsed, ends trimmed, Latin case folded: how a reader compares two headings. */
function comparable(text: string): string {
  return text.normalize('NFC').replace(/\s+/g, ' ').trim().toLowerCase();
}

/**
 * Whether the note already opens with its title as a level-1 heading. Notes written
 * by an agent (or by hand) often start `# <title>`; printing the title above it
 * would show the same line twice, so the exporters print the note's own heading
 * alone. Front matter is not text a reader sees, so the first block after it counts.
 */
export function opensWithTitle(document: ExportDocument): boolean {
  const first = document.root.children.find((node) => node.type !== 'front_matter');
  if (first?.type !== 'heading' || Number(first.attributes['level'] ?? 1) !== 1) return false;
  const title = comparable(document.title);
  return title !== '' && comparable(first.text ?? plainText(first)) === title;
}

/** Whether an exporter prints the title above the note: asked for, and not already the note's first heading. */
export function printsTitle(document: ExportDocument, includeTitle: boolean): boolean {
  return includeTitle && !opensWithTitle(document);
}

import { PDFHexString, PDFName, PDFNumber, type PDFDocument, type PDFPage, type PDFRef } from 'pdf-lib';

export interface OutlineItem {
  title: string;
  level: number;
  page: PDFPage;
  y: number;
}

/**
 * A text string for the outline. A literal string is read as PDFDocEncoding, one
 * byte a character, so a CJK title written that way loses all but each unit's low
 * byte ("表格" became "h<"); UTF-16BE with its byte-order mark (ISO 32000 §7.9.2.2)
 * reads back exactly in every reader, ASCII included.
 */
export function outlineTitle(title: string): PDFHexString {
  // Cut by code point, so a long title never ends in half a surrogate pair.
  return PDFHexString.fromText(Array.from(title).slice(0, 200).join(''));
}

type Entry = OutlineItem & { ref: PDFRef; children: Entry[] };

/** Headings as the PDF outline (bookmarks), nested by level. */
export function addOutline(pdf: PDFDocument, items: readonly OutlineItem[], firstPage: PDFPage): void {
  if (items.length === 0) return;
  const context = pdf.context;
  const root: Entry = { ref: context.nextRef(), title: '', level: 0, page: firstPage, y: 0, children: [] };
  const stack: Entry[] = [root];
  for (const item of items) {
    while ((stack[stack.length - 1]?.level ?? 0) >= item.level) stack.pop();
    const parent = stack[stack.length - 1] ?? root;
    const entry: Entry = { ...item, ref: context.nextRef(), children: [] };
    parent.children.push(entry);
    stack.push(entry);
  }
  const count = (entry: Entry): number => entry.children.reduce((sum, child) => sum + 1 + count(child), 0);
  const write = (entry: Entry): void => {
    entry.children.forEach((child, index) => {
      const dict = context.obj({
        Title: outlineTitle(child.title),
        Parent: entry.ref,
        Dest: [child.page.ref, PDFName.of('XYZ'), null, PDFNumber.of(child.y), null],
      });
      const previous = entry.children[index - 1];
      const next = entry.children[index + 1];
      if (previous) dict.set(PDFName.of('Prev'), previous.ref);
      if (next) dict.set(PDFName.of('Next'), next.ref);
      const first = child.children[0];
      const last = child.children[child.children.length - 1];
      if (first && last) {
        dict.set(PDFName.of('First'), first.ref);
        dict.set(PDFName.of('Last'), last.ref);
        dict.set(PDFName.of('Count'), PDFNumber.of(count(child)));
      }
      context.assign(child.ref, dict);
      write(child);
    });
  };
  write(root);
  const first = root.children[0];
  const last = root.children[root.children.length - 1];
  if (!first || !last) return;
  context.assign(
    root.ref,
    context.obj({ Type: 'Outlines', First: first.ref, Last: last.ref, Count: PDFNumber.of(count(root)) }),
  );
  pdf.catalog.set(PDFName.of('Outlines'), root.ref);
  pdf.catalog.set(PDFName.of('PageMode'), PDFName.of('UseOutlines'));
}

import type { DocumentNode } from '../contracts/exports';

/**
 * A picture kept in the note's attachment store is linked as `attachment:<id>`:
 * the note's text stays small (a photo as a data: URL is megabytes of base64 in
 * the editor, the search index and every version in the history), and equal
 * pictures are stored once. The preview and the exporters resolve the link.
 */
export const NOTE_IMAGE_SCHEME = 'attachment:';

const ATTACHMENT_ID = /^[A-Za-z0-9_-]{1,200}$/;

/** The attachment a picture's URL names, or null for any other URL. */
export function noteImageId(url: string): string | null {
  const trimmed = url.trim();
  if (!trimmed.toLowerCase().startsWith(NOTE_IMAGE_SCHEME)) return null;
  const id = trimmed.slice(NOTE_IMAGE_SCHEME.length);
  return ATTACHMENT_ID.test(id) ? id : null;
}

/** The alt text for a file: its name less the extension, one line, brackets escaped. */
export function imageAltText(fileName: string): string {
  const base = fileName.replace(/\.[A-Za-z0-9]{1,5}$/, '');
  return base
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\\[\]]/g, (character) => `\\${character}`)
    .slice(0, 200);
}

/** The Markdown that shows a stored picture. */
export function noteImageMarkdown(fileName: string, attachmentId: string): string {
  return `![${imageAltText(fileName)}](${NOTE_IMAGE_SCHEME}${attachmentId})`;
}

/**
 * The Markdown for pictures inserted at `start`: each on a line of its own, so
 * text on either side is not glued to it.
 */
export function pictureInsertion(
  text: string,
  start: number,
  end: number,
  images: readonly string[],
): string {
  return pictureLinesBetween(text.slice(Math.max(0, start - 1), start), text.slice(end, end + 1), images);
}

/**
 * The same, given only the text next to the insertion: the character before it
 * and the one after it ('' at either end of the text). The large-note editor
 * reads just these two, not its megabytes of text.
 */
export function pictureLinesBetween(before: string, after: string, images: readonly string[]): string {
  const lead = before === '' || before.endsWith('\n') ? '' : '\n';
  const trail = after.startsWith('\n') ? '' : '\n';
  return `${lead}${images.join('\n')}${trail}`;
}

export interface StoredPicture {
  mime_type: string;
  base64: string;
}

/**
 * Replaces every `attachment:` picture of an export's document with a data: URL of
 * its bytes (the exporters embed data: URLs and never fetch). A picture no longer
 * stored becomes its alt text; the count of those is returned for a warning.
 */
export async function inlineNoteImages(
  root: DocumentNode,
  lookup: (attachmentId: string) => Promise<StoredPicture | null>,
): Promise<{ missing: number }> {
  const found = new Map<string, StoredPicture | null>();
  let missing = 0;
  const visit = async (node: DocumentNode): Promise<void> => {
    for (const [index, child] of node.children.entries()) {
      const id = child.type === 'image' ? noteImageId(String(child.attributes['src'] ?? '')) : null;
      if (id === null) {
        await visit(child);
        continue;
      }
      if (!found.has(id)) found.set(id, await lookup(id));
      const picture = found.get(id);
      if (picture) {
        child.attributes['src'] = `data:${picture.mime_type};base64,${picture.base64}`;
      } else {
        missing += 1;
        const alt = String(child.attributes['alt'] ?? '');
        node.children[index] = {
          node_id: child.node_id,
          type: 'text',
          attributes: {},
          children: [],
          text: alt ? `[${alt}]` : '',
          ...(child.position && { position: child.position }),
        };
      }
    }
  };
  await visit(root);
  return { missing };
}

import type { MarkdownIt } from 'markdown-it';
import type { WikilinkMeta } from '../../core/markdown/syntax';
import { splitWikilinkTarget } from '../../core/wikilinks-target';

/** The in-app route of a wiki target; the router owns `#/wiki/...`. */
export function wikilinkHref(target: string): string {
  return `#/wiki/${encodeURIComponent(target)}`;
}

/**
 * Wiki-style links between notes, rendered as in-app anchors the router understands.
 * `[[Note#Heading]]` names the note in `data-wikilink` and the heading or `^block` in
 * `data-wikilink-fragment`; its address carries both (`#/wiki/Note%23Heading`), so the
 * link opened in a new tab or copied lands on the heading, not the note's top.
 * `[[#Heading]]` has no note, only the place in the note it is in. `![[Note]]` (an
 * embed) is the same link in a card.
 */
export function wikilinkPlugin(md: MarkdownIt): void {
  const escape = md.utils.escapeHtml;
  md.renderer.rules['wikilink'] = (tokens, index) => {
    const meta = tokens[index]?.meta as WikilinkMeta | undefined;
    if (!meta) return '';
    const { title, fragment } = splitWikilinkTarget(meta.target);
    const place = fragment === null ? '' : ` data-wikilink-fragment="${escape(fragment)}"`;
    // A link within the note has no address of its own (the renderer does not know the
    // note's title, and another tab has no note open): the preview scrolls to the place.
    const address = fragment === null ? title : `${title}#${fragment}`;
    const href = title === '' ? ' role="link" tabindex="0"' : ` href="${escape(wikilinkHref(address))}"`;
    const link = `<a class="wikilink" data-wikilink="${escape(title)}"${place}${href}>${escape(meta.label)}</a>`;
    // `![[Note]]` shows where the note is embedded, as a card that opens it.
    return meta.embed === true ? `<span class="note-embed">${link}</span>` : link;
  };
}

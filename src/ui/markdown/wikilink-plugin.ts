import type { MarkdownIt } from 'markdown-it';
import type { WikilinkMeta } from '../../core/markdown/syntax';

/** The in-app route of a wiki target; the router owns `#/wiki/...`. */
export function wikilinkHref(target: string): string {
  return `#/wiki/${encodeURIComponent(target)}`;
}

/** Wiki-style links between notes, rendered as in-app anchors the router understands. */
export function wikilinkPlugin(md: MarkdownIt): void {
  const escape = md.utils.escapeHtml;
  md.renderer.rules['wikilink'] = (tokens, index) => {
    const meta = tokens[index]?.meta as WikilinkMeta | undefined;
    if (!meta) return '';
    return (
      `<a class="wikilink" data-wikilink="${escape(meta.target)}" href="${escape(wikilinkHref(meta.target))}">` +
      `${escape(meta.label)}</a>`
    );
  };
}

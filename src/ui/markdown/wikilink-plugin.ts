import type { MarkdownIt, StateInline } from 'markdown-it';

const OPEN_BRACKET = 0x5b;

export interface WikilinkMeta {
  target: string;
  label: string;
}

/** The in-app route of a wiki target; the router owns `#/wiki/...`. */
export function wikilinkHref(target: string): string {
  return `#/wiki/${encodeURIComponent(target)}`;
}

/** `[[target]]` and `[[target|label]]` on one line; brackets inside are not allowed. */
function wikilinkRule(state: StateInline, silent: boolean): boolean {
  const { src, pos: start, posMax: max } = state;
  if (src.charCodeAt(start) !== OPEN_BRACKET || src.charCodeAt(start + 1) !== OPEN_BRACKET) return false;
  // A wikilink inside a Markdown link label would nest anchors.
  if (state.linkLevel > 0) return false;

  const close = src.indexOf(']]', start + 2);
  if (close === -1 || close + 2 > max) return false;
  const inner = src.slice(start + 2, close);
  if (/[[\]\n]/.test(inner)) return false;

  const separator = inner.indexOf('|');
  const target = (separator === -1 ? inner : inner.slice(0, separator)).trim();
  const label = separator === -1 ? target : inner.slice(separator + 1).trim() || target;
  if (target === '') return false;

  if (!silent) {
    const token = state.push('wikilink', 'a', 0);
    token.markup = '[[';
    token.content = label;
    token.meta = { target, label } satisfies WikilinkMeta;
  }
  state.pos = close + 2;
  return true;
}

/** Wiki-style links between notes, rendered as in-app anchors the router understands. */
export function wikilinkPlugin(md: MarkdownIt): void {
  const escape = md.utils.escapeHtml;
  // Before `link`, so `[[x]]` is never tried as a reference link first.
  md.inline.ruler.before('link', 'wikilink', wikilinkRule);
  md.renderer.rules['wikilink'] = (tokens, index) => {
    const meta = tokens[index]?.meta as WikilinkMeta | undefined;
    if (!meta) return '';
    return (
      `<a class="wikilink" data-wikilink="${escape(meta.target)}" href="${escape(wikilinkHref(meta.target))}">` +
      `${escape(meta.label)}</a>`
    );
  };
}

import type { MarkdownIt, Renderer, Token } from 'markdown-it';
import { calloutDefaultTitle } from '../../core/markdown/callout-titles';
import { noteLinkOf, type BlockIdMeta, type CalloutMeta } from '../../core/markdown/obsidian-syntax';
import { wikilinkHref } from './wikilink-plugin';

/** Attribute that names the block an Obsidian `^id` ends, for `[[Note#^id]]`. */
export const BLOCK_ID_ATTRIBUTE = 'data-block-id';
/** Attribute that carries a callout's kind, for its colours. */
export const CALLOUT_ATTRIBUTE = 'data-callout';

function calloutOf(token: Token | undefined): CalloutMeta {
  return (token?.meta as CalloutMeta | null) ?? { kind: 'note', fold: '', titled: true };
}

export interface ObsidianPluginOptions {
  /** The title of a callout written without one, by its kind; by default Obsidian's (the kind, capitalised). */
  calloutTitle?: (kind: string) => string;
}

/**
 * The preview's rendering of what Obsidian adds (see core/markdown/obsidian-syntax):
 * comments render nothing; a callout is a titled box, a foldable one a `<details>`
 * (closed for `-`, open for `+`); a block id is an empty anchor; a Markdown link to a
 * `.md` note is a wikilink, so a click opens the note in the app instead of asking
 * the server for the file. Highlights keep markdown-it-mark's `<mark>`. A callout without
 * a title shows its kind's title through `options.calloutTitle`.
 */
export function obsidianPlugin(md: MarkdownIt, options: ObsidianPluginOptions = {}): void {
  const escape = md.utils.escapeHtml;
  const rules = md.renderer.rules;
  const calloutTitle = options.calloutTitle ?? calloutDefaultTitle;

  // Before the inline stage, so a title in the reader's language is parsed as the kind's was.
  md.core.ruler.after('callout', 'callout_title_language', (state) => {
    state.tokens.forEach((token, index) => {
      const title = state.tokens[index + 1];
      if (token.type !== 'callout_title_open' || title?.type !== 'inline') return;
      const meta = calloutOf(token);
      if (!meta.titled) title.content = calloutTitle(meta.kind);
    });
  });
  rules['obsidian_comment'] = () => '';

  rules['callout_open'] = (tokens, index, _options, _env, self: Renderer) => {
    const { kind, fold } = calloutOf(tokens[index]);
    const tag = fold === '' ? 'div' : 'details';
    const open = fold === '+' ? ' open' : '';
    return `<${tag} class="callout" ${CALLOUT_ATTRIBUTE}="${escape(kind)}"${self.renderAttrs(tokens[index]!)}${open}>\n`;
  };
  rules['callout_close'] = (tokens, index) =>
    calloutOf(tokens[index]).fold === '' ? '</div>\n' : '</details>\n';
  rules['callout_title_open'] = (tokens, index) =>
    calloutOf(tokens[index]).fold === '' ? '<div class="callout-title">' : '<summary class="callout-title">';
  rules['callout_title_close'] = (tokens, index) =>
    calloutOf(tokens[index]).fold === '' ? '</div>\n' : '</summary>\n';

  rules['block_id'] = (tokens, index) => {
    const { id } = tokens[index]?.meta as BlockIdMeta;
    return `<span class="block-id" ${BLOCK_ID_ATTRIBUTE}="${escape(id)}"></span>`;
  };

  // A picture sized `|200x100`: the stylesheet keeps pictures' heights `auto` so a wide one
  // shrinks to the pane in proportion; the ratio asked for keeps the height as written.
  const image = rules['image'];
  rules['image'] = (tokens, index, options, env, self: Renderer) => {
    const token = tokens[index]!;
    const width = Number(token.attrGet('width'));
    const height = Number(token.attrGet('height'));
    if (width > 0 && height > 0 && token.attrGet('style') === null)
      token.attrSet('style', `aspect-ratio: ${width} / ${height}`);
    return image ? image(tokens, index, options, env, self) : self.renderToken(tokens, index, options);
  };

  const linkOpen = rules['link_open'];
  rules['link_open'] = (tokens, index, options, env, self: Renderer) => {
    const token = tokens[index]!;
    const note = noteLinkOf(token);
    if (!note)
      return linkOpen
        ? linkOpen(tokens, index, options, env, self)
        : self.renderToken(tokens, index, options);
    const place = note.fragment === null ? '' : ` data-wikilink-fragment="${escape(note.fragment)}"`;
    const address = note.fragment === null ? note.target : `${note.target}#${note.fragment}`;
    const title = token.attrGet('title');
    const shown = title === null ? '' : ` title="${escape(String(title))}"`;
    return `<a class="wikilink" data-wikilink="${escape(note.target)}"${place} href="${escape(wikilinkHref(address))}"${shown}>`;
  };
}

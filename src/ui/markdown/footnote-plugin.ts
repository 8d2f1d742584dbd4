import type { MarkdownIt } from 'markdown-it';
import type { FootnoteEnv, FootnoteMeta } from '../../core/markdown/syntax';

/**
 * Footnotes in the preview. A reference is a superscript number that jumps to its definition;
 * the definition stays where the note has it (the preview renders block by block, so there is
 * no end of document to gather them at) and its number jumps back. Both are plain `#` anchors
 * that the preview's click handler scrolls within the preview: the URL's hash is the app's route.
 */
export function footnotePlugin(md: MarkdownIt): void {
  const escape = md.utils.escapeHtml;
  const numberOf = (label: string, env: unknown): string =>
    String((env as FootnoteEnv).footnotes?.get(label) ?? label);

  md.renderer.rules['footnote_ref'] = (tokens, index, _options, env) => {
    const meta = tokens[index]?.meta as FootnoteMeta | undefined;
    if (!meta) return '';
    const label = escape(meta.label);
    return (
      `<sup class="footnote-ref"><a href="#" data-footnote-ref="${label}">` +
      `${escape(numberOf(meta.label, env))}</a></sup>`
    );
  };
  md.renderer.rules['footnote_open'] = (tokens, index, _options, env, self) => {
    const token = tokens[index];
    const meta = token?.meta as FootnoteMeta | undefined;
    if (!token || !meta) return '';
    const label = escape(meta.label);
    return (
      `<div class="footnote" data-footnote="${label}"${self.renderAttrs(token)}>` +
      `<a href="#" class="footnote-number" data-footnote-back="${label}">${escape(numberOf(meta.label, env))}</a>`
    );
  };
  md.renderer.rules['footnote_close'] = () => '</div>\n';
}

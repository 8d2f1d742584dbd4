import type { MarkdownIt } from 'markdown-it';

/**
 * Front matter is note metadata, not content: the `front_matter` token (parsed by
 * the shared grammar in core/markdown) renders nothing.
 */
export function frontMatterPlugin(md: MarkdownIt): void {
  md.renderer.rules['front_matter'] = () => '';
}

import type { MarkdownIt, StateBlock } from 'markdown-it';
import { lineText } from './block-state';

/**
 * YAML front matter (`---` on the first line up to a closing `---` or `...`) is note
 * metadata, not content. It is consumed by a block rule rather than cut from the
 * source, so every later block keeps its true line number for `data-source-line`.
 */
export function frontMatterPlugin(md: MarkdownIt): void {
  md.block.ruler.before('table', 'front_matter', frontMatterRule);
  // The token carries the raw YAML for anyone who walks the token stream; it renders nothing.
  md.renderer.rules['front_matter'] = () => '';
}

function frontMatterRule(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (startLine !== 0 || state.blkIndent !== 0 || (state.sCount[0] ?? 0) !== 0) return false;
  if (lineText(state, 0).trimEnd() !== '---') return false;

  let closing = -1;
  for (let line = 1; line < endLine; line++) {
    const text = lineText(state, line).trimEnd();
    if ((text === '---' || text === '...') && (state.sCount[line] ?? 0) === 0) {
      closing = line;
      break;
    }
  }
  // Without a closing fence this is a thematic break, not metadata.
  if (closing === -1) return false;
  if (silent) return true;

  const token = state.push('front_matter', '', 0);
  token.hidden = true;
  token.block = true;
  token.content = state.getLines(1, closing, 0, false);
  token.map = [0, closing + 1];
  state.line = closing + 1;
  return true;
}

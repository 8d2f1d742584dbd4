import katex from 'katex';
import type { MarkdownIt, StateBlock, StateInline } from 'markdown-it';
import { isCodeIndented, lineEnd, lineStart } from './block-state';

const DOLLAR = 0x24;
const BACKSLASH = 0x5c;

function isWhitespace(char: string | undefined): boolean {
  return char !== undefined && /\s/.test(char);
}

function isDigit(char: string | undefined): boolean {
  return char !== undefined && char >= '0' && char <= '9';
}

/**
 * TeX to KaTeX HTML. `throwOnError: false` turns TeX errors into KaTeX's red error
 * span; the catch covers KaTeX's own failures, because one bad formula must never
 * take the whole preview down.
 */
export function renderTex(tex: string, displayMode: boolean, escapeHtml: (text: string) => string): string {
  try {
    return katex.renderToString(tex, { displayMode, throwOnError: false, output: 'htmlAndMathml' });
  } catch {
    return `<code class="math-error">${escapeHtml(tex)}</code>`;
  }
}

/** Index of the next `$` in [from, max) that is not backslash-escaped, or -1. */
function findClosingDollar(src: string, from: number, max: number): number {
  for (let index = src.indexOf('$', from); index !== -1 && index < max; index = src.indexOf('$', index + 1)) {
    let backslashes = 0;
    for (let before = index - 1; before >= from && src.charCodeAt(before) === BACKSLASH; before--)
      backslashes++;
    if (backslashes % 2 === 0) return index;
  }
  return -1;
}

/**
 * `$tex$` inline and `$$tex$$` display math inside a paragraph. The delimiter rules
 * keep prices as text: the opening `$` needs a non-space after it, the closing `$`
 * a non-space before it and no digit after it, so `$5 and $6` is never math.
 */
function mathInlineRule(state: StateInline, silent: boolean): boolean {
  const { src, pos: start, posMax: max } = state;
  if (src.charCodeAt(start) !== DOLLAR) return false;

  if (src.charCodeAt(start + 1) === DOLLAR) {
    const close = src.indexOf('$$', start + 2);
    if (close === -1 || close >= max || close === start + 2) {
      // An unclosed `$$` is literal text; consuming both dollars keeps the second
      // from opening inline math by accident.
      if (!silent) state.pending += '$$';
      state.pos = start + 2;
      return true;
    }
    if (!silent) {
      const token = state.push('math_inline_display', 'math', 0);
      token.markup = '$$';
      token.content = src.slice(start + 2, close);
    }
    state.pos = close + 2;
    return true;
  }

  if (start + 1 >= max || isWhitespace(src[start + 1])) return false;
  const close = findClosingDollar(src, start + 1, max);
  if (close === -1) return false;
  if (isWhitespace(src[close - 1]) || isDigit(src[close + 1])) return false;

  if (!silent) {
    const token = state.push('math_inline', 'math', 0);
    token.markup = '$';
    token.content = src.slice(start + 1, close);
  }
  state.pos = close + 1;
  return true;
}

/**
 * A `$$` block: either `$$ tex $$` on one line or `$$` ... `$$` across lines. An
 * unclosed `$$` is not math (it stays a paragraph), so a half-typed formula does not
 * swallow the rest of the note.
 */
function mathBlockRule(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (isCodeIndented(state, startLine)) return false;
  const start = lineStart(state, startLine);
  const end = lineEnd(state, startLine);
  if (state.src.slice(start, start + 2) !== '$$') return false;

  const firstLine = state.src.slice(start + 2, end);
  let content: string;
  let lastLine = startLine;

  const sameLineClose = firstLine.indexOf('$$');
  if (sameLineClose !== -1) {
    // `$$x$$ and more` is inline display math inside a paragraph, not a block.
    if (firstLine.slice(sameLineClose + 2).trim() !== '') return false;
    content = firstLine.slice(0, sameLineClose).trim();
    if (content === '') return false;
  } else {
    let found = false;
    for (let line = startLine + 1; line < endLine; line++) {
      const lineBegin = lineStart(state, line);
      const lineFinish = lineEnd(state, line);
      // A non-blank line dedented out of the enclosing list item or quote ends the search.
      if (lineBegin < lineFinish && (state.sCount[line] ?? 0) < state.blkIndent) break;
      if (state.src.slice(lineBegin, lineFinish).trimEnd().endsWith('$$')) {
        lastLine = line;
        found = true;
        break;
      }
    }
    if (!found) return false;
    const closingText = state.src.slice(lineStart(state, lastLine), lineEnd(state, lastLine)).trimEnd();
    content = [
      firstLine.trim(),
      state.getLines(startLine + 1, lastLine, state.blkIndent, false).replace(/\n$/, ''),
      closingText.slice(0, -2).trim(),
    ]
      .filter((part) => part !== '')
      .join('\n');
  }
  if (silent) return true;

  const token = state.push('math_block', 'div', 0);
  token.block = true;
  token.markup = '$$';
  token.content = content;
  token.map = [startLine, lastLine + 1];
  state.line = lastLine + 1;
  return true;
}

/** `$...$` and `$$...$$` math, rendered with KaTeX. */
export function mathPlugin(md: MarkdownIt): void {
  const escape = md.utils.escapeHtml;
  md.inline.ruler.after('escape', 'math_inline', mathInlineRule);
  md.block.ruler.after('blockquote', 'math_block', mathBlockRule, {
    alt: ['paragraph', 'reference', 'blockquote', 'list'],
  });
  md.renderer.rules['math_inline'] = (tokens, index) =>
    renderTex(tokens[index]?.content ?? '', false, escape);
  md.renderer.rules['math_inline_display'] = (tokens, index) =>
    renderTex(tokens[index]?.content ?? '', true, escape);
  md.renderer.rules['math_block'] = (tokens, index, _options, _env, renderer) => {
    const token = tokens[index];
    if (!token) return '';
    token.attrJoin('class', 'math-block');
    return `<div${renderer.renderAttrs(token)}>${renderTex(token.content, true, escape)}</div>\n`;
  };
}

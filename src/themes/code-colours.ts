import { BUILTIN_TOKENS } from './builtin-themes';
import { composite, parseCssColour, readableOn, schemeForBackground, toHex, type Rgba } from './contrast';
import { SECURE_UI_ATTRIBUTE } from './secure-ui';

/**
 * The custom properties that colour code in a note (highlight.js classes, see
 * note-content.ts), and the code text itself. A package theme may set any of
 * them; the ones it leaves out come from the built-in light or dark set.
 */
export const CODE_TEXT_TOKENS = [
  '--color-code-text',
  '--code-keyword',
  '--code-string',
  '--code-comment',
  '--code-number',
  '--code-title',
  '--code-type',
  '--code-attr',
  '--code-meta',
] as const;

/** Drawn on their own backgrounds, which come with them. */
const CODE_DIFF_TOKENS = ['--code-addition', '--code-addition-bg', '--code-deletion', '--code-deletion-bg'];

/** Same weight as a package's own `:root` rules (guarded the same way), so it beats app.css's dark block by order. */
const ROOT = `:root:not([${SECURE_UI_ATTRIBUTE}],[${SECURE_UI_ATTRIBUTE}] *)`;
/** Rules that only sometimes apply: their values do not decide the code background. */
const CONDITIONAL_AT_RULES = new Set(['media', 'container', 'supports', 'keyframes', 'starting-style']);
const VAR = /^var\(\s*(--[\w-]+)\s*(?:,\s*([^]*))?\)$/;
const MAX_VAR_DEPTH = 8;

interface DeclaredTokens {
  /** Every custom property the stylesheet sets somewhere. */
  names: Set<string>;
  /** The last unconditional value of each, in source order. */
  values: Map<string, string>;
}

/**
 * The custom properties a stylesheet sets. A small scanner rather than
 * css-tree: this runs in the core worker's main bundle for every export and
 * preview, and the stylesheet is one css-tree generated already (checked).
 */
function declaredTokens(css: string): DeclaredTokens {
  const names = new Set<string>();
  const values = new Map<string, string>();
  /** One per open block: whether it only sometimes applies (an @media…), or holds declarations. */
  const blocks: Array<{ conditional: boolean; rule: boolean }> = [];
  let buffer = '';
  let parens = 0;
  const declaration = (): void => {
    const match = /^\s*(--[\w-]+)\s*:([^]*)$/.exec(buffer);
    if (match && blocks.at(-1)?.rule) {
      const [, name, value] = match as unknown as [string, string, string];
      names.add(name);
      if (!blocks.some((block) => block.conditional))
        values.set(name, value.replace(/!important\s*$/i, '').trim());
    }
    buffer = '';
  };
  for (let index = 0; index < css.length; index += 1) {
    const char = css[index]!;
    if (char === '/' && css[index + 1] === '*') {
      const close = css.indexOf('*/', index + 2);
      index = close < 0 ? css.length : close + 1;
      continue;
    }
    if (char === '"' || char === "'") {
      let end = index + 1;
      while (end < css.length && css[end] !== char) end += css[end] === '\\' ? 2 : 1;
      buffer += css.slice(index, end + 1);
      index = end;
      continue;
    }
    if (char === '(') parens += 1;
    else if (char === ')') parens = Math.max(0, parens - 1);
    if (parens > 0) {
      buffer += char;
      continue;
    }
    if (char === '{') {
      const prelude = buffer.trim();
      const atRule = /^@([\w-]+)/.exec(prelude)?.[1]?.toLowerCase();
      blocks.push({
        conditional: atRule !== undefined && CONDITIONAL_AT_RULES.has(atRule),
        rule: atRule === undefined,
      });
      buffer = '';
    } else if (char === ';') declaration();
    else if (char === '}') {
      declaration();
      blocks.pop();
    } else buffer += char;
  }
  return { names, values };
}

/** A token's colour as the page would compute it: the stylesheet's value, else the built-in one, `var()`s followed. */
function resolveColour(name: string, declared: DeclaredTokens, isDark: boolean): Rgba | null {
  const builtin = BUILTIN_TOKENS[isDark ? 'dark' : 'light'];
  let value: string | undefined = declared.values.get(name) ?? builtin[name as `--${string}`];
  for (let depth = 0; value !== undefined && depth < MAX_VAR_DEPTH; depth += 1) {
    const reference = VAR.exec(value.trim());
    if (!reference) return parseCssColour(value);
    const [, inner, fallback] = reference as unknown as [string, string, string | undefined];
    value = declared.values.get(inner) ?? builtin[inner as `--${string}`] ?? fallback;
  }
  return null;
}

/**
 * Code colours for a package theme that sets its own code background but not
 * (all of) its syntax colours: the built-in set for that background's
 * lightness (a dark code background in a light theme gets the dark set), each
 * colour moved toward black or white where needed to reach 4.5:1 on it. An
 * empty string when the stylesheet sets no code background or one that cannot
 * be read, and when it sets every colour itself; so running it on its own
 * output adds nothing.
 */
export function codeColourDefaultsCss(css: string, isDark: boolean): string {
  const declared = declaredTokens(css);
  if (!declared.values.has('--color-code-bg')) return '';
  let background = resolveColour('--color-code-bg', declared, isDark);
  if (background === null) return '';
  if (background.a < 1) {
    const page = resolveColour('--color-bg', declared, isDark);
    if (page === null || page.a < 1) return '';
    background = composite(background, page);
  }
  const defaults = BUILTIN_TOKENS[schemeForBackground(background)];
  const lines: string[] = [];
  for (const name of CODE_TEXT_TOKENS) {
    if (declared.names.has(name)) continue;
    const colour = parseCssColour(defaults[name]!)!;
    lines.push(`  ${name}: ${toHex(readableOn(colour, background))};`);
  }
  for (const name of CODE_DIFF_TOKENS) {
    if (!declared.names.has(name)) lines.push(`  ${name}: ${defaults[name as `--${string}`]};`);
  }
  if (lines.length === 0) return '';
  return `/* Code colours the theme left out, chosen for its code background. */\n${ROOT} {\n${lines.join('\n')}\n}\n`;
}

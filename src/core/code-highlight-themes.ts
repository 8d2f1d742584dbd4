import type { ExportCodeTheme } from '../contracts/exports';
import { codeTokens } from './code-highlight';

export interface CodeStyle {
  /** `#rrggbb` */
  color: string;
  bold?: boolean;
  italic?: boolean;
}

/** Colours for highlight.js scopes, as its GitHub themes give them. */
export interface CodeTheme {
  readonly id: ExportCodeTheme;
  readonly dark: boolean;
  /** Block background and plain text; undefined for `none`, which keeps the page's. */
  readonly background: string | undefined;
  readonly foreground: string | undefined;
  /** By scope (`keyword`, `title.function`); a dotted scope falls back to its first part. */
  readonly scopes: Readonly<Record<string, CodeStyle>>;
}

function githubScopes(colors: {
  keyword: string;
  title: string;
  constant: string;
  string: string;
  variable: string;
  comment: string;
  tag: string;
  heading: string;
  list: string;
  text: string;
  inserted: string;
  deleted: string;
}): Record<string, CodeStyle> {
  const of = (color: string, extra: Partial<CodeStyle> = {}): CodeStyle => ({ color, ...extra });
  return {
    doctag: of(colors.keyword),
    keyword: of(colors.keyword),
    'template-tag': of(colors.keyword),
    'template-variable': of(colors.keyword),
    type: of(colors.keyword),
    'variable.language': of(colors.keyword),
    title: of(colors.title),
    attr: of(colors.constant),
    attribute: of(colors.constant),
    literal: of(colors.constant),
    meta: of(colors.constant),
    number: of(colors.constant),
    operator: of(colors.constant),
    variable: of(colors.constant),
    'selector-attr': of(colors.constant),
    'selector-class': of(colors.constant),
    'selector-id': of(colors.constant),
    regexp: of(colors.string),
    string: of(colors.string),
    built_in: of(colors.variable),
    symbol: of(colors.variable),
    comment: of(colors.comment),
    code: of(colors.comment),
    formula: of(colors.comment),
    name: of(colors.tag),
    quote: of(colors.tag),
    'selector-tag': of(colors.tag),
    'selector-pseudo': of(colors.tag),
    subst: of(colors.text),
    section: of(colors.heading, { bold: true }),
    bullet: of(colors.list),
    emphasis: of(colors.text, { italic: true }),
    strong: of(colors.text, { bold: true }),
    addition: of(colors.inserted),
    deletion: of(colors.deleted),
  };
}

// highlight.js's github.css and github-dark.css, the contract's names for them.
const THEMES: Readonly<Record<ExportCodeTheme, CodeTheme>> = {
  'github-light': {
    id: 'github-light',
    dark: false,
    background: '#f6f8fa',
    foreground: '#24292e',
    scopes: githubScopes({
      keyword: '#d73a49',
      title: '#6f42c1',
      constant: '#005cc5',
      string: '#032f62',
      variable: '#e36209',
      comment: '#6a737d',
      tag: '#22863a',
      heading: '#005cc5',
      list: '#735c0f',
      text: '#24292e',
      inserted: '#22863a',
      deleted: '#b31d28',
    }),
  },
  'github-dark': {
    id: 'github-dark',
    dark: true,
    background: '#0d1117',
    foreground: '#c9d1d9',
    scopes: githubScopes({
      keyword: '#ff7b72',
      title: '#d2a8ff',
      constant: '#79c0ff',
      string: '#a5d6ff',
      variable: '#ffa657',
      comment: '#8b949e',
      tag: '#7ee787',
      heading: '#1f6feb',
      list: '#f2cc60',
      text: '#c9d1d9',
      inserted: '#aff5b4',
      deleted: '#ffdcd7',
    }),
  },
  none: { id: 'none', dark: false, background: undefined, foreground: undefined, scopes: {} },
};

/** The theme for a `code_theme` id; undefined for an id no theme has. */
export function codeTheme(id: string): CodeTheme | undefined {
  return Object.hasOwn(THEMES, id) ? THEMES[id as ExportCodeTheme] : undefined;
}

/** The style of a token: its innermost scope the theme colours, else none (the block's text colour). */
export function tokenStyle(theme: CodeTheme, scopes: readonly string[]): CodeStyle | undefined {
  for (let index = scopes.length - 1; index >= 0; index--) {
    const scope = scopes[index] ?? '';
    const style = theme.scopes[scope] ?? theme.scopes[scope.split('.')[0] ?? ''];
    if (style) return style;
  }
  return undefined;
}

/** A run of code in one style; `style` undefined is the block's plain text. */
export interface StyledCode {
  text: string;
  style: CodeStyle | undefined;
}

/** `code` in `language` as styled runs, neighbours of the same style merged. `none` gives one plain run. */
export function styledCode(code: string, language: string, theme: CodeTheme): StyledCode[] {
  const runs: StyledCode[] = [];
  const tokens = theme.id === 'none' ? [{ text: code, scopes: [] }] : codeTokens(code, language);
  for (const token of tokens) {
    if (token.text === '') continue;
    const style = tokenStyle(theme, token.scopes);
    const last = runs[runs.length - 1];
    if (last && last.style === style) last.text += token.text;
    else runs.push({ text: token.text, style });
  }
  return runs;
}

/** Runs split at line ends, for formats that write a code block line by line (PDF, DOCX). */
export function styledLines(runs: readonly StyledCode[]): StyledCode[][] {
  const lines: StyledCode[][] = [[]];
  for (const run of runs) {
    run.text.split('\n').forEach((part, index) => {
      if (index > 0) lines.push([]);
      if (part !== '') lines[lines.length - 1]?.push({ text: part, style: run.style });
    });
  }
  return lines;
}

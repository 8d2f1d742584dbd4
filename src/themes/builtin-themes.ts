import type { BuiltinThemeId, InstalledTheme } from '../contracts/themes';

/**
 * The built-in themes as the custom properties a theme package sets. The same
 * values are written in `src/ui/app.css` (so the first paint needs no script);
 * a test keeps the two in step.
 */
export type ThemeTokens = Readonly<Record<`--${string}`, string>>;

const LIGHT: ThemeTokens = {
  '--color-bg': '#ffffff',
  '--color-surface': '#f5f6f8',
  '--color-surface-raised': '#ffffff',
  '--color-hover': '#eceef2',
  '--color-border': '#dcdfe4',
  '--color-text': '#1d2127',
  '--color-text-muted': '#5b6470',
  '--color-accent': '#2f5d8a',
  '--color-accent-hover': '#254b71',
  '--color-accent-soft': '#e2ebf5',
  '--color-on-accent': '#ffffff',
  '--color-danger': '#b3261e',
  '--color-danger-hover': '#8f1e18',
  '--color-danger-soft': '#fbe9e7',
  '--color-success': '#1b7a3a',
  '--color-warning': '#9a6700',
  '--color-warning-soft': '#fff4d6',
  '--color-focus': '#2f81f7',
  '--color-code-bg': '#f6f8fa',
  '--color-code-text': '#1f2328',
  '--color-code-border': '#d8dee4',
  '--color-table-border': '#d0d7de',
  '--color-table-header-bg': '#f6f8fa',
  '--color-table-stripe': '#fafbfc',
  '--color-quote-border': '#d0d7de',
  '--code-keyword': '#b31d28',
  '--code-string': '#0a3069',
  '--code-comment': '#59636e',
  '--code-number': '#0550ae',
  '--code-title': '#6639ba',
  '--code-type': '#953800',
  '--code-attr': '#0550ae',
  '--code-meta': '#1f2328',
  '--code-addition': '#116329',
  '--code-addition-bg': '#dafbe1',
  '--code-deletion': '#82071e',
  '--code-deletion-bg': '#ffebe9',
  '--shadow': '0 6px 24px rgb(15 23 42 / 0.14)',
};

const DARK: ThemeTokens = {
  '--color-bg': '#16181d',
  '--color-surface': '#1d2026',
  '--color-surface-raised': '#23262d',
  '--color-hover': '#2a2e36',
  '--color-border': '#343943',
  '--color-text': '#e6e8eb',
  '--color-text-muted': '#9aa3ae',
  '--color-accent': '#7fb0e0',
  '--color-accent-hover': '#9cc3ea',
  '--color-accent-soft': '#23364a',
  '--color-on-accent': '#0e1a26',
  '--color-danger': '#f2877e',
  '--color-danger-hover': '#f5a39c',
  '--color-danger-soft': '#3d2020',
  '--color-success': '#6cc488',
  '--color-warning': '#e3b341',
  '--color-warning-soft': '#3a3019',
  '--color-focus': '#58a6ff',
  '--color-code-bg': '#1f232a',
  '--color-code-text': '#e6edf3',
  '--color-code-border': '#343943',
  '--color-table-border': '#3d444d',
  '--color-table-header-bg': '#22262d',
  '--color-table-stripe': '#1a1d22',
  '--color-quote-border': '#3d444d',
  '--code-keyword': '#ff7b72',
  '--code-string': '#a5d6ff',
  '--code-comment': '#8b949e',
  '--code-number': '#79c0ff',
  '--code-title': '#d2a8ff',
  '--code-type': '#ffa657',
  '--code-attr': '#79c0ff',
  '--code-meta': '#e6edf3',
  '--code-addition': '#aff5b4',
  '--code-addition-bg': '#033a16',
  '--code-deletion': '#ffdcd7',
  '--code-deletion-bg': '#67060c',
  '--shadow': '0 6px 24px rgb(0 0 0 / 0.5)',
};

export const BUILTIN_TOKENS: Readonly<Record<BuiltinThemeId, ThemeTokens>> = { light: LIGHT, dark: DARK };

export const BUILTIN_THEMES: Readonly<Record<BuiltinThemeId, Omit<InstalledTheme, 'enabled'>>> = {
  light: {
    theme_id: 'light',
    name: 'Light',
    version: '1.0.0',
    author: 'NotesAgent',
    description: null,
    is_dark: false,
    builtin: true,
    installed_at: null,
  },
  dark: {
    theme_id: 'dark',
    name: 'Dark',
    version: '1.0.0',
    author: 'NotesAgent',
    description: null,
    is_dark: true,
    builtin: true,
    installed_at: null,
  },
};

export function isBuiltinTheme(themeId: string): themeId is BuiltinThemeId {
  return themeId === 'light' || themeId === 'dark';
}

/** A rule that sets every token, e.g. `tokensCss(':root', BUILTIN_TOKENS.dark)`. */
export function tokensCss(selector: string, tokens: ThemeTokens, colorScheme?: 'light' | 'dark'): string {
  const lines = Object.entries(tokens).map(([name, value]) => `  ${name}: ${value};`);
  if (colorScheme) lines.unshift(`  color-scheme: ${colorScheme};`);
  return `${selector} {\n${lines.join('\n')}\n}\n`;
}

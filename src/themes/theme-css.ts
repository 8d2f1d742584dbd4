import type { BuiltinThemeId } from '../contracts/themes';
import { BUILTIN_TOKENS, tokensCss } from './builtin-themes';
import { codeColourDefaultsCss } from './code-colours';
import { MAX_THEME_Z_INDEX, SECURE_UI_ATTRIBUTE } from './secure-ui';
import { NOTE_CONTENT_CSS } from './note-content';

/**
 * What a package theme cannot reach inside the security UI. Its rules never
 * match there (each selector is guarded), but inherited values still flow in:
 * custom properties, colour, fonts. The prompt's root takes them back from the
 * built-in theme, with generic font families only (a package @font-face can
 * take a family name, never `system-ui` or `sans-serif`). Inline prompts sit
 * above any z-index a theme may use; dialogs are in the top layer already.
 */
export function secureUiCss(isDark: boolean): string {
  const scheme: BuiltinThemeId = isDark ? 'dark' : 'light';
  const selector = `[${SECURE_UI_ATTRIBUTE}]`;
  return (
    tokensCss(selector, BUILTIN_TOKENS[scheme], scheme) +
    `${selector} {
  color: var(--color-text);
  font-family: system-ui, sans-serif;
  font-size: 15px;
  font-style: normal;
  font-weight: 400;
  font-variant: normal;
  font-feature-settings: normal;
  line-height: 1.5;
  letter-spacing: normal;
  word-spacing: normal;
  text-transform: none;
  text-indent: 0;
  text-shadow: none;
  text-align: start;
  direction: ltr;
  writing-mode: horizontal-tb;
  visibility: visible;
  white-space: normal;
  cursor: auto;
  pointer-events: auto;
  -webkit-text-fill-color: currentColor;
  -webkit-text-stroke: 0;
  --font-sans: system-ui, sans-serif;
  --font-mono: monospace;
}
${selector}:not(dialog) {
  position: relative;
  z-index: ${MAX_THEME_Z_INDEX + 1};
}
`
  );
}

/**
 * A complete, self-contained stylesheet for a theme: its tokens on `:root`,
 * how notes are drawn, and a package's checked CSS after them. Exports and the
 * isolated preview use it; the app itself already has the base parts.
 */
export function themeStylesheet(theme: { is_dark: boolean; css: string | null }): string {
  const scheme: BuiltinThemeId = theme.is_dark ? 'dark' : 'light';
  const base =
    tokensCss(':root', BUILTIN_TOKENS[scheme], scheme) +
    `:root {\n  --radius: 6px;\n  --font-sans: system-ui, sans-serif;\n  --font-mono: ui-monospace, monospace;\n}\n` +
    `body {\n  margin: 0;\n  background: var(--color-bg);\n  color: var(--color-text);\n  font-family: var(--font-sans);\n}\n` +
    NOTE_CONTENT_CSS;
  if (theme.css === null) return base;
  // A theme installed before code colours followed the code background gets them here (a no-op for newer ones).
  return `${base}\n${codeColourDefaultsCss(theme.css, theme.is_dark)}${theme.css}`;
}

import { codeTheme, type CodeTheme } from '../core/code-highlight-themes';
import { isDarkExport, type ExportContext } from './exporter';

/**
 * The export's `code_theme`. The service refuses an unknown id before a job exists;
 * a job stored by an older build may still hold one, and it prints as the default.
 */
export function exportCodeTheme(context: Pick<ExportContext, 'options'>): CodeTheme {
  return codeTheme(context.options.code_theme) ?? (codeTheme('github-light') as CodeTheme);
}

/**
 * The code block's own background and text colour, or undefined to keep the page
 * theme's. A code theme as light or dark as the page keeps the theme's code
 * background (a package theme's tint stays, as in the preview); one of the other
 * lightness brings its own, or its colours would not read on the page's.
 */
export function codeBlockColours(
  theme: CodeTheme,
  context: Pick<ExportContext, 'options' | 'theme'>,
): { background: string; foreground: string } | undefined {
  if (theme.background === undefined || theme.foreground === undefined) return undefined;
  if (theme.dark === isDarkExport(context)) return undefined;
  return { background: theme.background, foreground: theme.foreground };
}

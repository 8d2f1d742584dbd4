import type { SettingsDto } from '../../contracts/settings';
import type { ActiveThemeDto } from '../../contracts/themes';
import { appearance } from './appearance.svelte';

/**
 * Puts the active theme on the page. A package's CSS arrives already checked
 * by the core (parsed, URLs inlined, every selector kept out of the security
 * UI, which gets the built-in tokens back at the end) and is applied as a
 * constructed stylesheet, never as markup.
 */

interface AppliedPackage {
  themeId: string;
  isDark: boolean;
  sheets: CSSStyleSheet[];
}

let applied: AppliedPackage | null = null;
let builtinChoice: SettingsDto['theme'] = 'system';

function root(): HTMLElement {
  return document.documentElement;
}

let systemQuery: MediaQueryList | null = null;

function systemIsDark(): boolean {
  if (typeof matchMedia !== 'function') return false;
  if (!systemQuery) {
    systemQuery = matchMedia('(prefers-color-scheme: dark)');
    systemQuery.addEventListener?.('change', setColorScheme);
  }
  return systemQuery.matches;
}

function setColorScheme(): void {
  const element = root();
  if (applied) element.dataset.theme = applied.isDark ? 'dark' : 'light';
  else if (builtinChoice === 'system') delete element.dataset.theme;
  else element.dataset.theme = builtinChoice;
  const dark = applied
    ? applied.isDark
    : builtinChoice === 'system'
      ? systemIsDark()
      : builtinChoice === 'dark';
  appearance.setDark(dark);
  appearance.setThemeId(applied?.themeId ?? (dark ? 'dark' : 'light'));
}

/** The settings' built-in choice; an enabled package still decides while it is on. */
export function applyBuiltinTheme(theme: SettingsDto['theme']): void {
  builtinChoice = theme;
  setColorScheme();
}

function sheetOf(css: string): CSSStyleSheet {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  return sheet;
}

export function applyActiveTheme(active: ActiveThemeDto): void {
  const element = root();
  if (applied) {
    const stale = new Set(applied.sheets);
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter((sheet) => !stale.has(sheet));
    applied = null;
    delete element.dataset.themePackage;
  }
  if (active.css !== null) {
    const isDark = active.is_dark ?? false;
    const sheets = [sheetOf(active.css)];
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, ...sheets];
    applied = { themeId: active.theme_id, isDark, sheets };
    element.dataset.themePackage = active.theme_id;
  }
  setColorScheme();
}

/** The installed package on screen now, or null while a built-in is. */
export function appliedPackageId(): string | null {
  return applied?.themeId ?? null;
}

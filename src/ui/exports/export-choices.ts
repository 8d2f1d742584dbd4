import {
  EXPORT_CODE_THEMES,
  EXPORT_PAGE_SIZES,
  type ExportCodeTheme,
  type ExportOptions,
  type ExportPageSize,
} from '../../contracts/exports';

/**
 * What the user chose in the export menu's options, kept per device. `theme` and
 * `code_theme` may follow the screen (`current`, `auto`): a user who never chose
 * gets a file that looks like the app, whichever theme it shows at the time.
 */
export interface ExportChoices {
  theme: 'current' | string;
  page_size: ExportPageSize;
  include_title: boolean;
  include_metadata: boolean;
  code_theme: ExportCodeTheme | 'auto';
}

export const DEFAULT_EXPORT_CHOICES: Readonly<ExportChoices> = {
  theme: 'current',
  page_size: 'A4',
  include_title: true,
  include_metadata: false,
  code_theme: 'auto',
};

export const EXPORT_CHOICES_KEY = 'notesagent.export-options';

/** The contract's theme id shape (§10.1): anything else in storage is not sent. */
const THEME_ID = /^[\w.-]{1,64}$/;

type ReadableStorage = Pick<Storage, 'getItem'>;
type WritableStorage = Pick<Storage, 'setItem'>;

/** The stored choices, each field falling back to its default when missing or not understood. */
export function readExportChoices(storage: ReadableStorage | null): ExportChoices {
  let stored: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(EXPORT_CHOICES_KEY) ?? '{}');
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      stored = parsed as Record<string, unknown>;
  } catch {
    // Unreadable (another build's shape, or a hand edit): the defaults stand.
  }
  const {
    theme,
    page_size: pageSize,
    include_title: title,
    include_metadata: metadata,
    code_theme: code,
  } = stored;
  return {
    theme: typeof theme === 'string' && (theme === 'current' || THEME_ID.test(theme)) ? theme : 'current',
    page_size: EXPORT_PAGE_SIZES.includes(pageSize as ExportPageSize)
      ? (pageSize as ExportPageSize)
      : DEFAULT_EXPORT_CHOICES.page_size,
    include_title: typeof title === 'boolean' ? title : DEFAULT_EXPORT_CHOICES.include_title,
    include_metadata: typeof metadata === 'boolean' ? metadata : DEFAULT_EXPORT_CHOICES.include_metadata,
    code_theme:
      code === 'auto' || EXPORT_CODE_THEMES.includes(code as ExportCodeTheme)
        ? (code as ExportCodeTheme | 'auto')
        : DEFAULT_EXPORT_CHOICES.code_theme,
  };
}

/** Keeps the choices for the next export; a full or missing storage only loses the memory of them. */
export function writeExportChoices(storage: WritableStorage | null, choices: ExportChoices): void {
  try {
    storage?.setItem(EXPORT_CHOICES_KEY, JSON.stringify(choices));
  } catch {
    // Quota or private mode: this export still uses the choices.
  }
}

/**
 * The choices with a theme that is still installed: a package chosen once and
 * uninstalled since would fail every export, so it falls back to the screen's
 * theme. `installed` empty means the list has not come yet: nothing is changed.
 */
export function withInstalledTheme(
  choices: ExportChoices,
  installed: ReadonlyArray<{ theme_id: string }>,
): ExportChoices {
  if (installed.length === 0 || choices.theme === 'current') return choices;
  const known = ['light', 'dark', ...installed.map((theme) => theme.theme_id)];
  return known.includes(choices.theme) ? choices : { ...choices, theme: 'current' };
}

/** Options as the menu asks for them: the code theme one the service knows. */
export type ChosenExportOptions = ExportOptions & { code_theme: ExportCodeTheme };

/** The theme on screen now, and how to tell whether another theme id is dark. */
export interface ScreenTheme {
  themeId: string;
  dark: boolean;
  /** Whether an installed theme is dark; undefined when it is not known. */
  isDark?: (themeId: string) => boolean | undefined;
}

/**
 * The options the export is asked for. Code colours that follow the theme follow the
 * chosen one, not the screen's: a light handout from a dark app gets light code colours.
 */
export function exportOptions(choices: ExportChoices, screen: ScreenTheme): ChosenExportOptions {
  const themeId = choices.theme === 'current' ? screen.themeId : choices.theme;
  const dark =
    choices.theme === 'current'
      ? screen.dark
      : (screen.isDark?.(themeId) ?? (themeId === screen.themeId ? screen.dark : themeId === 'dark'));
  return {
    theme_id: themeId,
    include_title: choices.include_title,
    include_metadata: choices.include_metadata,
    page_size: choices.page_size,
    code_theme: choices.code_theme === 'auto' ? (dark ? 'github-dark' : 'github-light') : choices.code_theme,
  };
}

/** This device's storage for the choices; null where the browser refuses it (a sandbox, private mode). */
export function deviceStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

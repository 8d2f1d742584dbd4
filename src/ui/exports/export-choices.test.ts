import { describe, expect, it } from 'vitest';
import {
  DEFAULT_EXPORT_CHOICES,
  EXPORT_CHOICES_KEY,
  exportOptions,
  readExportChoices,
  withInstalledTheme,
  writeExportChoices,
} from './export-choices';

function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    items,
  };
}

describe('export choices', () => {
  it('start as the defaults, and come back as they were written', () => {
    const storage = memoryStorage();
    expect(readExportChoices(storage)).toEqual(DEFAULT_EXPORT_CHOICES);
    expect(readExportChoices(null)).toEqual(DEFAULT_EXPORT_CHOICES);
    const chosen = {
      theme: 'light',
      page_size: 'Letter',
      include_title: false,
      include_metadata: true,
      code_theme: 'none',
    } as const;
    writeExportChoices(storage, chosen);
    expect(readExportChoices(storage)).toEqual(chosen);
  });

  it('fall back field by field when storage holds something else', () => {
    expect(readExportChoices(memoryStorage({ [EXPORT_CHOICES_KEY]: 'not json' }))).toEqual(
      DEFAULT_EXPORT_CHOICES,
    );
    const odd = JSON.stringify({
      theme: '../x y',
      page_size: 'B5',
      include_title: 'no',
      include_metadata: true,
      code_theme: 'monokai',
    });
    expect(readExportChoices(memoryStorage({ [EXPORT_CHOICES_KEY]: odd }))).toEqual({
      ...DEFAULT_EXPORT_CHOICES,
      include_metadata: true,
    });
  });

  it('survive a storage that refuses to write', () => {
    const full = {
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
    };
    expect(() => writeExportChoices(full, DEFAULT_EXPORT_CHOICES)).not.toThrow();
  });
});

describe('exportOptions', () => {
  const darkScreen = { themeId: 'dark', dark: true };

  it('follows the screen by default: theme and code colours', () => {
    expect(exportOptions(DEFAULT_EXPORT_CHOICES, darkScreen)).toEqual({
      theme_id: 'dark',
      include_title: true,
      include_metadata: false,
      page_size: 'A4',
      code_theme: 'github-dark',
    });
  });

  it('prints a light handout from a dark app with light code colours', () => {
    const options = exportOptions(
      { ...DEFAULT_EXPORT_CHOICES, theme: 'light', page_size: 'Letter' },
      darkScreen,
    );
    expect(options).toMatchObject({ theme_id: 'light', page_size: 'Letter', code_theme: 'github-light' });
  });

  it("matches code colours to an installed theme's lightness, and keeps an explicit code theme", () => {
    const screen = {
      themeId: 'light',
      dark: false,
      isDark: (id: string) => (id === 'night-owl' ? true : undefined),
    };
    expect(exportOptions({ ...DEFAULT_EXPORT_CHOICES, theme: 'night-owl' }, screen).code_theme).toBe(
      'github-dark',
    );
    expect(
      exportOptions({ ...DEFAULT_EXPORT_CHOICES, theme: 'night-owl', code_theme: 'none' }, screen).code_theme,
    ).toBe('none');
  });
});

describe('withInstalledTheme', () => {
  const chosen = { ...DEFAULT_EXPORT_CHOICES, theme: 'solarized' };

  it('keeps a theme still installed, and the built-in ones', () => {
    expect(withInstalledTheme(chosen, [{ theme_id: 'solarized' }])).toEqual(chosen);
    expect(withInstalledTheme({ ...chosen, theme: 'light' }, [{ theme_id: 'x' }]).theme).toBe('light');
  });

  it('falls back to the screen theme for one uninstalled since, but not before the list has come', () => {
    expect(withInstalledTheme(chosen, [{ theme_id: 'dark' }]).theme).toBe('current');
    expect(withInstalledTheme(chosen, [])).toEqual(chosen);
  });
});

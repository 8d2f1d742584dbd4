import { z } from 'zod';
import { version as APP_VERSION } from '../../package.json';
import { AppError, parseInput, toIsoUtc, type ErrorCode } from '../contracts';
import type {
  ActiveThemeDto,
  InstalledTheme,
  ThemePackageInspection,
  ThemePackageSource,
} from '../contracts/themes';
import { themeIdSchema, themePackageSourceSchema } from '../contracts/themes-schemas';
import type { ThemeRepository, ThemeRow } from '../db';
import {
  PackageReadError,
  readFolderPackage,
  readManifest,
  readZipPackage,
  StagedPackages,
  type PackageContents,
  type PackageProblem,
} from '../packages';
import { manifestProblemDetails } from '../packages/manifest';
// The checks (css-tree and the package parsing) load on first use: most starts
// only read the enabled theme, and the parser should not slow every worker start.
import { BUILTIN_THEMES, isBuiltinTheme } from '../themes/builtin-themes';
import { codeColourDefaultsCss } from '../themes/code-colours';
import { secureUiCss, themeStylesheet } from '../themes/theme-css';
import type { CheckedThemePackage } from '../themes/theme-package';
import type { SettingsService } from './settings-service';

/** How the shared package reader is reached; tests may pass their own. */
export interface ThemePackagePort {
  readZip(name: string, bytes: Uint8Array): PackageContents;
  readFolder(name: string, entries: ReadonlyArray<{ path: string; bytes: Uint8Array }>): PackageContents;
  readManifest(pkg: PackageContents, fileName: string): unknown;
}

const SHARED_PACKAGE_READER: ThemePackagePort = {
  readZip: (name, bytes) => readZipPackage(name, bytes),
  readFolder: (name, entries) => readFolderPackage(name, entries),
  readManifest: (pkg, fileName) => readManifest(pkg, fileName),
};

export interface ThemeServiceOptions {
  themes: ThemeRepository;
  /** The built-in theme choice (`system`, `light`, `dark`) lives in the settings. */
  settings: Pick<SettingsService, 'get' | 'update'>;
  /** This app's version, compared with a manifest's `min_app_version`. */
  appVersion?: string;
  packages?: ThemePackagePort;
  staged?: Pick<StagedPackages, 'stage' | 'get' | 'drop'>;
  now?: () => string;
}

const PROBLEM_CODES: Record<PackageProblem, ErrorCode> = {
  not_an_archive: 'IMPORT_ARCHIVE_INVALID',
  path_outside_package: 'THEME_RESOURCE_OUTSIDE_PACKAGE',
  symlink: 'THEME_RESOURCE_OUTSIDE_PACKAGE',
  too_many_entries: 'PAYLOAD_TOO_LARGE',
  entry_too_large: 'PAYLOAD_TOO_LARGE',
  total_too_large: 'PAYLOAD_TOO_LARGE',
  ratio_too_high: 'PAYLOAD_TOO_LARGE',
  path_too_deep: 'IMPORT_ARCHIVE_INVALID',
  name_too_long: 'IMPORT_ARCHIVE_INVALID',
  duplicate_path: 'IMPORT_ARCHIVE_INVALID',
  manifest_missing: 'THEME_MANIFEST_INVALID',
  manifest_invalid: 'THEME_MANIFEST_INVALID',
};

/** The package reader's problems as this domain's codes; anything else passes through. */
function fromPackageError(error: unknown): unknown {
  if (!(error instanceof PackageReadError)) return error;
  return new AppError(PROBLEM_CODES[error.problem], error.message, {
    problem: error.problem,
    entry: error.entry,
    limit: error.limit,
    // A manifest that could not be read says why, and a syntax error where (line, column).
    ...manifestProblemDetails(error),
  });
}

const packageIdSchema = z.string().min(1).max(200);

function toInstalled(row: ThemeRow): InstalledTheme {
  return {
    theme_id: row.theme_id,
    name: row.manifest.name,
    version: row.manifest.version,
    author: row.manifest.author,
    description: row.manifest.description ?? null,
    is_dark: row.manifest.is_dark,
    builtin: false,
    enabled: row.enabled === 1,
    installed_at: row.installed_at,
  };
}

/**
 * Theme packages (§11.2): picked bytes are staged behind an opaque id, checked
 * (manifest, paths, CSS safety, resource types, app version), installed,
 * enabled and removed. The built-in `light` and `dark` are listed beside them
 * and cannot be removed.
 */
export class ThemeService {
  readonly #themes: ThemeRepository;
  readonly #settings: Pick<SettingsService, 'get' | 'update'>;
  readonly #appVersion: string;
  readonly #packages: ThemePackagePort;
  readonly #staged: Pick<StagedPackages, 'stage' | 'get' | 'drop'>;
  readonly #now: () => string;

  constructor(options: ThemeServiceOptions) {
    this.#themes = options.themes;
    this.#settings = options.settings;
    this.#appVersion = options.appVersion ?? APP_VERSION;
    this.#packages = options.packages ?? SHARED_PACKAGE_READER;
    this.#staged = options.staged ?? new StagedPackages();
    this.#now = options.now ?? (() => toIsoUtc(Date.now()));
  }

  /**
   * The page's file picker hands over a .zip's bytes or a folder's files; they
   * are read (limits, path checks) and kept behind the returned opaque id.
   */
  async selectPackage(source: ThemePackageSource): Promise<string> {
    const valid = parseInput(themePackageSourceSchema, source, 'This theme package cannot be read.');
    let contents: PackageContents;
    try {
      contents =
        valid.kind === 'zip'
          ? this.#packages.readZip(valid.name, valid.bytes)
          : this.#packages.readFolder(valid.name, valid.entries);
    } catch (error) {
      throw fromPackageError(error);
    }
    return this.#staged.stage(contents);
  }

  async inspectPackage(packageId: string): Promise<ThemePackageInspection> {
    const id = parseInput(packageIdSchema, packageId);
    const checked = await this.#check(id);
    return {
      package_id: id,
      manifest: checked.manifest,
      preview_url: checked.preview_url,
      warnings: checked.warnings,
      compatible: checked.compatible,
      preview_css: themeStylesheet({ is_dark: checked.manifest.is_dark, css: checked.css }),
    };
  }

  async install(packageId: string): Promise<InstalledTheme> {
    const id = parseInput(packageIdSchema, packageId);
    const checked = await this.#check(id);
    const { manifest } = checked;
    if (!checked.compatible) {
      throw new AppError(
        'THEME_PACKAGE_INCOMPATIBLE',
        `This theme needs app version ${manifest.min_app_version} or later (this is ${this.#appVersion}).`,
        { min_app_version: manifest.min_app_version, app_version: this.#appVersion },
      );
    }
    const row: ThemeRow = {
      theme_id: manifest.theme_id,
      manifest,
      css: checked.css,
      preview_url: checked.preview_url,
      enabled: 0,
      installed_at: this.#now(),
    };
    if (!(await this.#themes.add(row))) {
      const existing = await this.#themes.get(manifest.theme_id);
      throw new AppError('THEME_ALREADY_INSTALLED', `A theme "${manifest.theme_id}" is already installed.`, {
        theme_id: manifest.theme_id,
        installed_version: existing?.manifest.version ?? null,
      });
    }
    this.#staged.drop(id);
    return toInstalled(row);
  }

  async list(): Promise<InstalledTheme[]> {
    const [rows, settings] = await Promise.all([this.#themes.list(), this.#settings.get()]);
    const packageEnabled = rows.some((row) => row.enabled === 1);
    const builtins = (['light', 'dark'] as const).map((id) => ({
      ...BUILTIN_THEMES[id],
      enabled: !packageEnabled && settings.theme === id,
    }));
    return [...builtins, ...rows.map(toInstalled)];
  }

  /** A package replaces whatever theme was on; a built-in also becomes the settings' choice. */
  async enable(themeId: string): Promise<InstalledTheme> {
    const id = parseInput(themeIdSchema, themeId);
    if (isBuiltinTheme(id)) {
      await this.#settings.update({ theme: id });
      await this.#themes.setEnabled(null);
      return { ...BUILTIN_THEMES[id], enabled: true };
    }
    const row = await this.#require(id);
    await this.#themes.setEnabled(id);
    return toInstalled({ ...row, enabled: 1 });
  }

  /** Turning a theme off falls back to the built-in the settings name (a built-in falls back to the system's). */
  async disable(themeId: string): Promise<void> {
    const id = parseInput(themeIdSchema, themeId);
    if (isBuiltinTheme(id)) {
      if ((await this.#settings.get()).theme === id) await this.#settings.update({ theme: 'system' });
      return;
    }
    const row = await this.#require(id);
    if (row.enabled === 1) await this.#themes.setEnabled(null);
  }

  async uninstall(themeId: string): Promise<void> {
    const id = parseInput(themeIdSchema, themeId);
    if (isBuiltinTheme(id)) {
      throw new AppError('THEME_BUILTIN_PROTECTED', `The built-in theme "${id}" cannot be uninstalled.`, {
        theme_id: id,
      });
    }
    if (!(await this.#themes.delete(id))) throw this.#notFound(id);
  }

  /**
   * What the app shows now: an enabled package's checked CSS (followed by the
   * rules that give the security UI back the built-in tokens), else the
   * built-in choice.
   */
  async active(): Promise<ActiveThemeDto> {
    const row = await this.#themes.enabled();
    if (row) {
      const isDark = row.manifest.is_dark;
      // A theme installed before code colours followed its code background gets them here (newer ones already have them).
      const css = `${codeColourDefaultsCss(row.css, isDark)}${row.css}\n${secureUiCss(isDark)}`;
      return { theme_id: row.theme_id, is_dark: isDark, css };
    }
    const { theme } = await this.#settings.get();
    return { theme_id: theme, is_dark: theme === 'system' ? null : theme === 'dark', css: null };
  }

  /**
   * A theme as one self-contained stylesheet (tokens, note styles, the
   * package's checked CSS) for exports (`theme_id` of §10.1): `light`, `dark`
   * or an installed package.
   */
  async getThemeCss(themeId: string): Promise<{ theme_id: string; is_dark: boolean; css: string }> {
    const id = parseInput(themeIdSchema, themeId);
    if (isBuiltinTheme(id)) {
      const isDark = BUILTIN_THEMES[id].is_dark;
      return { theme_id: id, is_dark: isDark, css: themeStylesheet({ is_dark: isDark, css: null }) };
    }
    const row = await this.#require(id);
    return {
      theme_id: id,
      is_dark: row.manifest.is_dark,
      css: themeStylesheet({ is_dark: row.manifest.is_dark, css: row.css }),
    };
  }

  async #check(packageId: string): Promise<CheckedThemePackage> {
    const contents = this.#staged.get(packageId);
    if (!contents) {
      throw new AppError(
        'THEME_PACKAGE_NOT_FOUND',
        'This theme package is no longer available; pick it again.',
        {
          package_id: packageId,
        },
      );
    }
    const { checkThemePackage, THEME_MANIFEST_FILE } = await import('../themes/theme-package');
    try {
      const manifest = this.#packages.readManifest(contents, THEME_MANIFEST_FILE);
      return checkThemePackage(contents, manifest, this.#appVersion);
    } catch (error) {
      throw fromPackageError(error);
    }
  }

  async #require(themeId: string): Promise<ThemeRow> {
    const row = await this.#themes.get(themeId);
    if (!row) throw this.#notFound(themeId);
    return row;
  }

  #notFound(themeId: string): AppError {
    return new AppError('THEME_NOT_FOUND', `No theme "${themeId}" is installed.`, { theme_id: themeId });
  }
}

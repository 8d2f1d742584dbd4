import type { z } from 'zod';
import { AppError } from '../contracts';
import { manifestFieldProblems } from '../packages/manifest-fields';
import { themeManifestSchema } from '../contracts/themes-schemas';
import type { ThemeManifest } from '../contracts/themes';
import { isBuiltinTheme } from './builtin-themes';
import { codeColourDefaultsCss } from './code-colours';
import { checkThemeCss, type CssSafetyLimits } from './css-safety';
import { checkResource, toDataUrl } from './resource-mime';

/** The files of a package as the shared package reader returns them (normalized relative paths). */
export interface ThemePackageFiles {
  readonly name: string;
  readonly files: ReadonlyMap<string, Uint8Array>;
}

export const THEME_MANIFEST_FILE = 'theme.yaml';

/** A package that passed every check, ready to preview or install. */
export interface CheckedThemePackage {
  manifest: ThemeManifest;
  /** The checked stylesheet, package resources inlined as `data:` URLs. */
  css: string;
  preview_url: string | null;
  warnings: string[];
  compatible: boolean;
}

/** `1.2.3-beta` → [1, 2, 3, 0]; a release sorts after its pre-releases. */
function versionKey(version: string): number[] {
  const [core = '', prerelease] = version.split('+')[0]!.split(/-(.*)/s);
  const numbers = core.split('.').map((part) => Number.parseInt(part, 10) || 0);
  while (numbers.length < 3) numbers.push(0);
  return [...numbers.slice(0, 3), prerelease === undefined ? 1 : 0];
}

export function compareVersions(left: string, right: string): number {
  const a = versionKey(left);
  const b = versionKey(right);
  for (let index = 0; index < a.length; index += 1) {
    const difference = a[index]! - b[index]!;
    if (difference !== 0) return Math.sign(difference);
  }
  return 0;
}

/**
 * The schema's issues as fields a person can act on (required, unknown, one of,
 * not valid), classified as plugin manifests' are: an unknown key is named,
 * not reported as a problem of the manifest as a whole.
 */
function manifestError(raw: unknown, error: z.ZodError): AppError {
  const fields = manifestFieldProblems(raw, error.issues);
  const first = fields[0];
  return new AppError(
    'THEME_MANIFEST_INVALID',
    first
      ? `theme.yaml is not valid: ${fields.map((field) => `${field.path || 'manifest'}: ${field.message}`).join('; ')}.`
      : 'theme.yaml is not valid.',
    { reason: 'manifest_invalid', file: THEME_MANIFEST_FILE, fields },
  );
}

/**
 * A file theme.yaml names (`css_entry`, `preview`) that is not in the package,
 * or is not what the field needs: the field and the path, so the author knows
 * which line of theme.yaml and which file to fix.
 */
function fileRefusal(
  field: 'css_entry' | 'preview',
  path: string,
  reason: 'file_missing' | 'preview_not_image',
): AppError {
  const message =
    reason === 'file_missing'
      ? `${field} "${path}" is not in the package.`
      : `${field} "${path}" is not an image of the type its name says.`;
  return new AppError('THEME_MANIFEST_INVALID', message, {
    reason,
    file: THEME_MANIFEST_FILE,
    field,
    path,
    fields: [
      {
        path: field,
        message:
          reason === 'file_missing'
            ? 'file not found in the package'
            : 'not an image of the type its name says',
      },
    ],
  });
}

/** Every ThemeManifest field checked; a built-in's id cannot be taken. */
export function parseThemeManifest(raw: unknown): ThemeManifest {
  const result = themeManifestSchema.safeParse(raw);
  if (!result.success) throw manifestError(raw, result.error);
  const manifest: ThemeManifest = result.data;
  if (isBuiltinTheme(manifest.theme_id)) {
    throw new AppError(
      'THEME_MANIFEST_INVALID',
      `theme_id "${manifest.theme_id}" belongs to a built-in theme.`,
      {
        reason: 'reserved_theme_id',
        theme_id: manifest.theme_id,
        fields: [{ path: 'theme_id', message: 'reserved for a built-in theme' }],
      },
    );
  }
  return manifest;
}

/** A manifest path as a package path: relative, inside, no tricks. */
function packagePath(field: string, value: string): string {
  const parts: string[] = [];
  const outside = (): AppError =>
    new AppError('THEME_RESOURCE_OUTSIDE_PACKAGE', `${field} "${value}" points outside the package.`, {
      field,
      path: value,
    });
  if (
    value.startsWith('/') ||
    value.includes('\\') ||
    value.includes('\0') ||
    /^[a-z][a-z0-9+.-]*:/i.test(value)
  )
    throw outside();
  for (const segment of value.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (parts.length === 0) throw outside();
      parts.pop();
    } else parts.push(segment);
  }
  if (parts.length === 0) throw outside();
  return parts.join('/');
}

function directoryOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/**
 * Checks a read package against its manifest: the CSS entry exists and is
 * safe, every file it uses is an image or font by its bytes, the preview is an
 * image. Compatibility is reported, not enforced (install enforces it).
 */
export function checkThemePackage(
  pkg: ThemePackageFiles,
  rawManifest: unknown,
  appVersion: string,
  limits?: Partial<CssSafetyLimits>,
): CheckedThemePackage {
  const manifest = parseThemeManifest(rawManifest);
  const warnings: string[] = [];
  const cssPath = packagePath('css_entry', manifest.css_entry);
  const cssBytes = pkg.files.get(cssPath);
  if (!cssBytes) {
    throw fileRefusal('css_entry', manifest.css_entry, 'file_missing');
  }
  let cssText: string;
  try {
    cssText = new TextDecoder('utf-8', { fatal: true }).decode(cssBytes);
  } catch {
    throw new AppError('THEME_CSS_UNSAFE', `${manifest.css_entry} is not UTF-8 text.`, {
      reason: 'not_text',
      line: 0,
      found: manifest.css_entry,
    });
  }

  const badResources: string[] = [];
  const checked = checkThemeCss(cssText, {
    baseDir: directoryOf(cssPath),
    ...(limits ? { limits } : {}),
    resolveResource: (path) => {
      const bytes = pkg.files.get(path);
      if (!bytes) return null;
      const type = checkResource(path, bytes);
      if (!type) {
        badResources.push(path);
        // A placeholder keeps the walk going; the package is refused below.
        return 'data:,';
      }
      return toDataUrl(type.mime, bytes);
    },
  });
  if (badResources.length > 0) {
    throw new AppError(
      'THEME_CSS_UNSAFE',
      `${badResources[0]} is not an image or font of the type its name says.`,
      { reason: 'resource_type', line: 0, found: badResources[0], resources: badResources },
    );
  }
  warnings.push(...checked.warnings);

  let previewUrl: string | null = null;
  if (manifest.preview !== undefined) {
    const previewPath = packagePath('preview', manifest.preview);
    const bytes = pkg.files.get(previewPath);
    if (!bytes) {
      throw fileRefusal('preview', manifest.preview, 'file_missing');
    }
    const type = checkResource(previewPath, bytes);
    if (!type || type.kind !== 'image') {
      throw fileRefusal('preview', manifest.preview, 'preview_not_image');
    }
    previewUrl = toDataUrl(type.mime, bytes);
  }

  const compatible = compareVersions(appVersion, manifest.min_app_version) >= 0;
  if (!compatible)
    warnings.push(
      `This theme needs app version ${manifest.min_app_version} or later (this is ${appVersion}).`,
    );
  // Before the theme's own rules, so any code colour it sets still wins.
  const css = codeColourDefaultsCss(checked.css, manifest.is_dark) + checked.css;
  return { manifest, css, preview_url: previewUrl, warnings, compatible };
}

/** `theme.yaml` of a theme package (§11.1). */
export interface ThemeManifest {
  theme_id: string;
  name: string;
  version: string;
  author: string;
  description?: string;
  min_app_version: string;
  is_dark: boolean;
  css_entry: string;
  preview?: string;
}

/** What `inspectPackage` reports before anything is installed (§11.3). */
export interface ThemePackageInspection {
  package_id: string;
  manifest: ThemeManifest;
  /** The package's preview image as a `data:` URL (its MIME checked from the bytes), or null. */
  preview_url: string | null;
  warnings: string[];
  /** Whether this app's version is at least `min_app_version`. */
  compatible: boolean;
  /** The stylesheet after the safety checks, for the sandboxed preview only. */
  preview_css: string;
}

/** A theme the app can show: one of the built-ins or an installed package. */
export interface InstalledTheme {
  theme_id: string;
  name: string;
  version: string;
  author: string;
  description: string | null;
  is_dark: boolean;
  builtin: boolean;
  enabled: boolean;
  installed_at: string | null;
}

/** The theme the app shows now: a package's checked CSS, or none for a built-in. */
export interface ActiveThemeDto {
  /** `light`, `dark`, or an installed package's id; `system` when the OS decides. */
  theme_id: string;
  is_dark: boolean | null;
  /** Checked stylesheet of an enabled package (resources inlined, security UI reset); null for built-ins. */
  css: string | null;
}

export const BUILTIN_THEME_IDS = ['light', 'dark'] as const;
export type BuiltinThemeId = (typeof BUILTIN_THEME_IDS)[number];

/** A package as picked by the user: a .zip's bytes or a folder's files. */
export type ThemePackageSource =
  | { kind: 'zip'; name: string; bytes: Uint8Array }
  | { kind: 'folder'; name: string; entries: Array<{ path: string; bytes: Uint8Array }> };

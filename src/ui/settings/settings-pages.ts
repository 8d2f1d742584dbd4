/**
 * The pages of Settings, in the order the navigation lists them. The ids are also the
 * last segment of the page's address (`#/settings/<id>`), so they never change once shipped.
 */
export const SETTINGS_PAGES = [
  'general',
  'providers',
  'local-models',
  'search',
  'transcription',
  'agent',
  'plugins',
  'memory',
  'storage',
] as const;

export type SettingsPageId = (typeof SETTINGS_PAGES)[number];

export const DEFAULT_SETTINGS_PAGE: SettingsPageId = 'general';

export function isSettingsPage(value: unknown): value is SettingsPageId {
  return typeof value === 'string' && (SETTINGS_PAGES as readonly string[]).includes(value);
}

export function settingsPageHref(page: SettingsPageId): string {
  return `#/settings/${page}`;
}

/**
 * The page a hash names: `#/settings` is the default page, `#/settings/<id>` that page; an
 * unknown page id falls back to the default (an old bookmark still opens Settings); any
 * other hash is not Settings at all (null).
 */
export function settingsPageFromHash(hash: string): SettingsPageId | null {
  const path = hash.replace(/^#/, '').replace(/\/+$/, '');
  if (path !== '/settings' && !path.startsWith('/settings/')) return null;
  const page = path.slice('/settings/'.length);
  return isSettingsPage(page) ? page : DEFAULT_SETTINGS_PAGE;
}

import { describe, expect, it } from 'vitest';
import { isSettingsPage, SETTINGS_PAGES, settingsPageFromHash, settingsPageHref } from './settings-pages';

describe('settings pages', () => {
  it('lists every page once, General first', () => {
    expect(SETTINGS_PAGES[0]).toBe('general');
    expect(new Set(SETTINGS_PAGES).size).toBe(SETTINGS_PAGES.length);
  });

  it('reads the page back from its own address', () => {
    for (const page of SETTINGS_PAGES) expect(settingsPageFromHash(settingsPageHref(page))).toBe(page);
  });

  it('opens the default page for #/settings and for a page that no longer exists', () => {
    expect(settingsPageFromHash('#/settings')).toBe('general');
    expect(settingsPageFromHash('#/settings/')).toBe('general');
    expect(settingsPageFromHash('#/settings/old-page')).toBe('general');
  });

  it('is not Settings for other addresses', () => {
    expect(settingsPageFromHash('')).toBeNull();
    expect(settingsPageFromHash('#/notes/abc')).toBeNull();
    expect(settingsPageFromHash('#/settingsx')).toBeNull();
  });

  it('accepts only known page ids', () => {
    expect(isSettingsPage('providers')).toBe(true);
    expect(isSettingsPage('Providers')).toBe(false);
    expect(isSettingsPage(3)).toBe(false);
  });
});

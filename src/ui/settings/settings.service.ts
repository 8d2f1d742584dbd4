import type { SettingsDto, UpdateSettingsInput } from '../../contracts/settings';
import { core } from '../api/core-client';
import { reportError } from '../errors';
import { detectLocale, i18n } from '../i18n';
import { applyBuiltinTheme } from '../appearance/theme-applier';
import { settings } from './settings.svelte';
import { storage } from './storage.svelte';

function browserLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : [navigator.language];
}

/** Language (explicit, else from the browser) and theme take effect at once. */
export function applySettings(value: SettingsDto): void {
  i18n.setLocale(value.locale ?? detectLocale(browserLanguages()));
  applyBuiltinTheme(value.theme);
}

/** Before settings load: speak the browser's language so the first paint is right. */
export function applyBrowserLocale(): void {
  i18n.setLocale(detectLocale(browserLanguages()));
}

export async function loadSettings(): Promise<void> {
  try {
    const value = await core.settings.get();
    settings.set(value);
    applySettings(value);
  } catch (error) {
    reportError(error);
  }
}

export async function updateSettings(patch: UpdateSettingsInput): Promise<void> {
  try {
    const value = await core.settings.update(patch);
    settings.set(value);
    applySettings(value);
  } catch (error) {
    reportError(error);
    applySettings(settings.value);
  }
}

function storageManager(): StorageManager | null {
  return typeof navigator !== 'undefined' && navigator.storage ? navigator.storage : null;
}

let persistRequest: Promise<void> | null = null;

/**
 * Asks once per start for persistent storage (browsers may grant it silently,
 * e.g. for an installed app) and remembers the answer for the settings panel.
 */
export function requestPersistentStorage(options: { force?: boolean } = {}): Promise<void> {
  if (persistRequest && !options.force) return persistRequest;
  persistRequest = (async () => {
    const manager = storageManager();
    if (!manager?.persist) {
      storage.setSupported(false);
      return;
    }
    try {
      const already = manager.persisted ? await manager.persisted() : false;
      storage.setPersisted(already || (await manager.persist()));
    } catch (error) {
      console.warn('NotesAgent: persistent storage request failed', error);
      storage.setPersisted(null);
    }
  })();
  return persistRequest;
}

export async function refreshStorageEstimate(): Promise<void> {
  const manager = storageManager();
  if (!manager?.estimate) {
    storage.setEstimate(null, null);
    return;
  }
  try {
    const estimate = await manager.estimate();
    storage.setEstimate(estimate.usage ?? null, estimate.quota ?? null);
    if (manager.persisted) storage.setPersisted(await manager.persisted());
  } catch (error) {
    console.warn('NotesAgent: storage estimate failed', error);
    storage.setEstimate(null, null);
  }
}

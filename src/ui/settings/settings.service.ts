import { LOCALES, type Locale, type SettingsDto, type UpdateSettingsInput } from '../../contracts/settings';
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

/**
 * Switches the UI language; one whose table is not loaded yet switches once it is. When it
 * cannot load (offline before the service worker cached it), the toast says so and the
 * language stays as it was.
 */
function switchLocale(locale: Locale): Promise<void> {
  return i18n.setLocale(locale).catch(reportError);
}

/**
 * The language the user chose in settings, kept beside them for the next start: settings
 * come from the core after the first paint, which should already be in that language.
 */
const LOCALE_CHOICE_KEY = 'notesagent.locale';

function rememberLocaleChoice(locale: Locale | null): void {
  try {
    if (locale === null) localStorage.removeItem(LOCALE_CHOICE_KEY);
    else localStorage.setItem(LOCALE_CHOICE_KEY, locale);
  } catch {
    // Only spares a switch after the first paint; a blocked storage costs nothing else.
  }
}

function rememberedLocaleChoice(): Locale | null {
  try {
    const value = localStorage.getItem(LOCALE_CHOICE_KEY);
    return (LOCALES as readonly (string | null)[]).includes(value) ? (value as Locale) : null;
  } catch {
    return null;
  }
}

/** Language (explicit, else from the browser) and theme take effect (a language not yet loaded, once it is). */
export function applySettings(value: SettingsDto): void {
  rememberLocaleChoice(value.locale);
  void switchLocale(value.locale ?? detectLocale(browserLanguages()));
  applyBuiltinTheme(value.theme);
}

/**
 * Before settings load: speak the language chosen last time, else the browser's, so the first
 * paint is right. Resolves once it is in effect (at once for English, which the shell carries).
 */
export function applyFirstPaintLocale(): Promise<void> {
  return switchLocale(rememberedLocaleChoice() ?? detectLocale(browserLanguages()));
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

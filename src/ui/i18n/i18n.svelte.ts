import type { ErrorCode } from '../../contracts/error-codes';
import type { Locale } from '../../contracts/settings';
import { en, enErrors, type Dictionary, type MessageKey } from './en';
import { translate, type MessageParams } from './translate';

/** One language's messages and friendly error texts. */
export interface LocaleTables {
  readonly messages: Dictionary;
  readonly errors: Partial<Record<ErrorCode, string>>;
}

export type LocaleLoaders = Readonly<Record<Locale, () => Promise<LocaleTables>>>;

const englishTables: LocaleTables = { messages: en, errors: enErrors };

/**
 * English ships with the shell: it is the fallback for any key. Other tables are
 * fetched when a language is first used, so a first visit in English does not
 * download the Chinese one (the service worker precaches it for offline use).
 */
export const localeLoaders: LocaleLoaders = {
  en: () => Promise.resolve(englishTables),
  'zh-CN': () => import('./zh-cn').then(({ zhCN, zhCNErrors }) => ({ messages: zhCN, errors: zhCNErrors })),
};

/** The current UI language. Reading `locale` inside a template or `$derived` re-renders on a switch. */
export class I18nState {
  #locale = $state<Locale>('en');
  // Not reactive on purpose: `#locale` changes only once its table is here, and that re-renders.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  readonly #loaded = new Map<Locale, LocaleTables>([['en', englishTables]]);
  readonly #loaders: LocaleLoaders;
  /** Counts switches: a table that arrives after a later switch does not undo it. */
  #switches = 0;

  constructor(loaders: LocaleLoaders = localeLoaders) {
    this.#loaders = loaders;
  }

  get locale(): Locale {
    return this.#locale;
  }

  /** The current language's tables: English until another one has loaded and taken over. */
  get tables(): LocaleTables {
    return this.#loaded.get(this.#locale) ?? englishTables;
  }

  /**
   * Switches once the language's table is loaded (at once when it already is), so the
   * page never shows a mix of two languages. The last call wins. Rejects, leaving the
   * language as it was, when the table cannot be loaded; a later call tries again.
   */
  async setLocale(locale: Locale): Promise<void> {
    const switchNumber = ++this.#switches;
    let tables = this.#loaded.get(locale);
    if (!tables) {
      tables = await this.#loaders[locale]();
      this.#loaded.set(locale, tables);
    }
    if (switchNumber !== this.#switches) return;
    this.#locale = locale;
    if (typeof document !== 'undefined') document.documentElement.lang = locale;
  }

  reset(): Promise<void> {
    return this.setLocale('en');
  }

  t(key: MessageKey, params?: MessageParams): string {
    return translate(this.tables.messages, en, this.#locale, key, params);
  }

  /** Friendly text for an error code; otherwise the core's own message; otherwise a generic line. */
  errorText(code: string, fallbackMessage: string): string {
    const friendly = this.tables.errors[code as ErrorCode];
    if (friendly !== undefined) return friendly;
    return fallbackMessage.trim() !== '' ? fallbackMessage : this.t('errors.generic');
  }
}

export const i18n = new I18nState();

export function t(key: MessageKey, params?: MessageParams): string {
  return i18n.t(key, params);
}

/** Friendly text for an error code; otherwise the core's own message; otherwise a generic line. */
export function errorText(code: string, fallbackMessage: string): string {
  return i18n.errorText(code, fallbackMessage);
}

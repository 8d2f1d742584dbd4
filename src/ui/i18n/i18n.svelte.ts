import type { ErrorCode } from '../../contracts/error-codes';
import type { Locale } from '../../contracts/settings';
import { en, enErrors, type Dictionary, type MessageKey } from './en';
import { translate, type MessageParams } from './translate';
import { zhCN, zhCNErrors } from './zh-cn';

const dictionaries: Record<Locale, Dictionary> = { 'zh-CN': zhCN, en };
const errorDictionaries: Record<Locale, Partial<Record<ErrorCode, string>>> = {
  'zh-CN': zhCNErrors,
  en: enErrors,
};

/** The current UI language. Reading `locale` inside a template or `$derived` re-renders on a switch. */
export class I18nState {
  #locale = $state<Locale>('en');

  get locale(): Locale {
    return this.#locale;
  }

  setLocale(locale: Locale): void {
    this.#locale = locale;
    if (typeof document !== 'undefined') document.documentElement.lang = locale;
  }

  reset(): void {
    this.setLocale('en');
  }
}

export const i18n = new I18nState();

export function t(key: MessageKey, params?: MessageParams): string {
  return translate(dictionaries[i18n.locale], en, i18n.locale, key, params);
}

/** Friendly text for an error code; otherwise the core's own message; otherwise a generic line. */
export function errorText(code: string, fallbackMessage: string): string {
  const friendly = errorDictionaries[i18n.locale][code as ErrorCode];
  if (friendly !== undefined) return friendly;
  return fallbackMessage.trim() !== '' ? fallbackMessage : t('errors.generic');
}

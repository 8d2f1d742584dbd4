import { i18n } from './i18n.svelte';
import { translate, type Message, type MessageParams } from './translate';

/**
 * The text function for a feature's own message table (kept beside the
 * feature until it is merged into `en.ts` / `zh-cn.ts`): looks the key up in
 * the current locale's table, then in English. It reads `i18n.locale` on each
 * call, so templates re-render on a language switch as they do with `t`.
 */
export function featureMessages<K extends string>(
  en: Record<K, Message>,
  zhCN: Record<K, Message>,
): (key: K, params?: MessageParams) => string {
  const dictionaries = { en, 'zh-CN': zhCN } as const;
  return (key, params) => translate<K>(dictionaries[i18n.locale], en, i18n.locale, key, params);
}

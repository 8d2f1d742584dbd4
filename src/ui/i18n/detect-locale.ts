import type { Locale } from '../../contracts/settings';

/**
 * The first preferred language we can serve wins: any Chinese variant becomes
 * zh-CN, any English variant en; with no match the app speaks English.
 */
export function detectLocale(languages: readonly string[]): Locale {
  for (const language of languages) {
    const tag = language.trim().toLowerCase();
    if (tag === 'zh' || tag.startsWith('zh-')) return 'zh-CN';
    if (tag === 'en' || tag.startsWith('en-')) return 'en';
  }
  return 'en';
}

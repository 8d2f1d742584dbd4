import type { MessageKey } from '../i18n';

/**
 * The core names its search models in one mixed language ("BGE small zh v1.5 (中文为主)"). The
 * name is a brand and stays; the parenthesis that says which languages it serves is dropped
 * and said again, from the model's language list, in the UI's language.
 */
export function modelBaseName(label: string): string {
  return label.replace(/\s*\((?:[^()]*[\u4e00-\u9fff][^()]*|[^()]*English[^()]*)\)\s*$/u, '').trim();
}

export function modelLanguagesKey(languages: readonly string[]): MessageKey | null {
  const zh = languages.includes('zh');
  const en = languages.includes('en');
  if (languages.includes('multilingual')) return 'settingsForm.lang.multilingual';
  if (zh && en) return 'settingsForm.lang.mostlyChinese';
  if (zh) return 'settingsForm.lang.chinese';
  if (en) return 'settingsForm.lang.english';
  return null;
}

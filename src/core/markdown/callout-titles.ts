import type { DocumentLanguage } from './diagram-error-text';

/**
 * The words a callout written without a title shows. Obsidian shows the kind as typed,
 * capitalised (`[!tip]` reads "Tip"); in Chinese the kinds Obsidian knows read as their
 * Chinese names, and a kind of the writer's own keeps its name, as Obsidian does.
 * The app's dictionaries (ui/i18n, `obsidianMarkdown.callout.*`) hold the same words, so
 * exports, which run where those cannot be loaded, title callouts as the app does.
 */

/** Obsidian's callout kinds and their aliases, with the Chinese title of each. */
export const CALLOUT_TITLES_ZH: Readonly<Record<string, string>> = {
  note: '注意',
  abstract: '摘要',
  summary: '总结',
  tldr: '概要',
  info: '信息',
  todo: '待办',
  tip: '提示',
  hint: '提示',
  important: '重要',
  success: '成功',
  check: '通过',
  done: '完成',
  question: '问题',
  help: '帮助',
  faq: '常见问题',
  warning: '警告',
  caution: '小心',
  attention: '留意',
  failure: '失败',
  fail: '失败',
  missing: '缺失',
  danger: '危险',
  error: '错误',
  bug: '缺陷',
  example: '示例',
  quote: '引用',
  cite: '引文',
};

/** The callout kinds Obsidian knows (lower case). */
export const KNOWN_CALLOUT_KINDS: readonly string[] = Object.keys(CALLOUT_TITLES_ZH);

export function isKnownCalloutKind(kind: string): boolean {
  return Object.hasOwn(CALLOUT_TITLES_ZH, kind.toLowerCase());
}

/** The title a callout without one shows in Obsidian: its kind, capitalised (`[!tip]` reads "Tip"). */
export function calloutDefaultTitle(kind: string): string {
  return kind.charAt(0).toUpperCase() + kind.slice(1);
}

/** The title of an untitled callout of `kind` in `language`. */
export function calloutTitle(kind: string, language: DocumentLanguage): string {
  return language === 'zh-CN' && isKnownCalloutKind(kind)
    ? (CALLOUT_TITLES_ZH[kind.toLowerCase()] ?? calloutDefaultTitle(kind))
    : calloutDefaultTitle(kind);
}

import { describe, expect, it } from 'vitest';
import { en, type MessageKey } from './en';
import { formatMessage, interpolate, translate } from './translate';
import { zhCN } from './zh-cn';

describe('interpolate', () => {
  it('replaces known placeholders and leaves unknown ones visible', () => {
    expect(interpolate('{a} and {b}', { a: 1 })).toBe('1 and {b}');
  });
});

describe('formatMessage', () => {
  it('chooses the English plural form by count', () => {
    const message = { one: '{count} note', other: '{count} notes' };
    expect(formatMessage(message, 'en', { count: 1 })).toBe('1 note');
    expect(formatMessage(message, 'en', { count: 3 })).toBe('3 notes');
  });

  it('uses the other form where a language has no singular', () => {
    expect(formatMessage({ other: '{count} 篇笔记' }, 'zh-CN', { count: 1 })).toBe('1 篇笔记');
  });
});

describe('translate', () => {
  it('falls back to English, then to the key', () => {
    const partial: Partial<Record<MessageKey, string>> = {};
    expect(translate(partial, en, 'zh-CN', 'sidebar.trash')).toBe('Trash');
    expect(translate({}, {}, 'en', 'missing.key')).toBe('missing.key');
  });

  it('translates imports with counts in both languages', () => {
    expect(translate(en, en, 'en', 'jobs.imported', { count: 12 })).toBe('Imported 12 notes');
    expect(translate(zhCN, en, 'zh-CN', 'jobs.imported', { count: 12 })).toBe('已导入 12 篇笔记');
  });

  it('has the same placeholders in every Chinese message as in English', () => {
    const placeholders = (message: unknown) =>
      [...JSON.stringify(message).matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
    for (const key of Object.keys(en) as MessageKey[]) {
      expect(new Set(placeholders(zhCN[key])), key).toEqual(new Set(placeholders(en[key])));
    }
  });
});

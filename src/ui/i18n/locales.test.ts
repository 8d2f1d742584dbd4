import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../contracts/error-codes';
import { en, enErrors } from './en';
import { zhCN, zhCNErrors } from './zh-cn';

/**
 * Keys present in one table and absent from the other, per side. The types already reject a
 * missing `zh-CN` message, but casts, spreads and the partial error tables slip past them.
 */
function localeGaps(tables: Readonly<Record<string, object>>): Record<string, string[]> {
  const all = new Set(Object.values(tables).flatMap((table) => Object.keys(table)));
  const gaps: Record<string, string[]> = {};
  for (const [locale, table] of Object.entries(tables)) {
    const missing = [...all].filter((key) => !Object.hasOwn(table, key)).sort();
    if (missing.length > 0) gaps[locale] = missing;
  }
  return gaps;
}

describe('locales', () => {
  it('reports a key that exists in one locale and not the other', () => {
    const gaps = localeGaps({
      en: { 'demo.hello': 'Hello', 'demo.onlyEn': 'Only in English' },
      'zh-CN': { 'demo.hello': '你好', 'demo.onlyZh': '只有中文' },
    });
    expect(gaps).toEqual({ en: ['demo.onlyZh'], 'zh-CN': ['demo.onlyEn'] });
  });

  it('has every message in both en and zh-CN', () => {
    expect(localeGaps({ en, 'zh-CN': zhCN })).toEqual({});
  });

  it('has every friendly error text in both en and zh-CN', () => {
    expect(localeGaps({ en: enErrors, 'zh-CN': zhCNErrors })).toEqual({});
  });

  it('has a message for every error code of the contract, in en and in zh-CN', () => {
    const missing = (table: Readonly<Record<string, string | undefined>>) =>
      ERROR_CODES.filter((code) => !table[code]?.trim());
    expect({ en: missing(enErrors), 'zh-CN': missing(zhCNErrors) }).toEqual({ en: [], 'zh-CN': [] });
  });
});

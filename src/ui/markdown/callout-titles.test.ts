import { describe, expect, it } from 'vitest';
import {
  CALLOUT_TITLES_ZH,
  calloutDefaultTitle,
  calloutTitle,
  KNOWN_CALLOUT_KINDS,
} from '../../core/markdown/callout-titles';
import { en, type MessageKey } from '../i18n/en';
import { zhCN } from '../i18n/zh-cn';
import { appCalloutTitle } from './callout-titles';

const key = (kind: string) => `obsidianMarkdown.callout.${kind}` as MessageKey;

describe('callout titles', () => {
  it("has the app's words for every kind Obsidian knows, the same words exports use", () => {
    for (const kind of KNOWN_CALLOUT_KINDS) {
      expect(en[key(kind)]).toBe(calloutDefaultTitle(kind));
      expect(zhCN[key(kind)]).toBe(CALLOUT_TITLES_ZH[kind]);
      expect(calloutTitle(kind, 'en')).toBe(en[key(kind)]);
      expect(calloutTitle(kind, 'zh-CN')).toBe(zhCN[key(kind)]);
    }
    const keys = Object.keys(en).filter((name) => name.startsWith('obsidianMarkdown.callout.'));
    expect(keys.sort()).toEqual(KNOWN_CALLOUT_KINDS.map(key).sort());
  });

  it('keeps a kind of the writer’s own as Obsidian shows it, in any language', () => {
    expect(calloutTitle('recipe', 'zh-CN')).toBe('Recipe');
    expect(calloutTitle('constructor', 'zh-CN')).toBe('Constructor');
    expect(calloutTitle('WARNING', 'zh-CN')).toBe('警告');
    expect(appCalloutTitle('recipe')).toBe('Recipe');
    expect(appCalloutTitle('tip')).toBe('Tip');
  });
});

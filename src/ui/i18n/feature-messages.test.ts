import { afterEach, describe, expect, it } from 'vitest';
import { featureMessages } from './feature-messages';
import { i18n } from './i18n.svelte';

const en = { 'demo.greeting': 'Hello {name}' };
const zhCN = { 'demo.greeting': '你好，{name}' };
const text = featureMessages(en, zhCN);

afterEach(() => i18n.setLocale('en'));

describe('featureMessages', () => {
  it('follows the current locale on every call and interpolates', () => {
    expect(text('demo.greeting', { name: 'Ada' })).toBe('Hello Ada');
    i18n.setLocale('zh-CN');
    expect(text('demo.greeting', { name: 'Ada' })).toBe('你好，Ada');
  });
});

import { describe, expect, it } from 'vitest';
import { detectLocale } from './detect-locale';

describe('detectLocale', () => {
  it('maps every Chinese variant to zh-CN', () => {
    expect(detectLocale(['zh'])).toBe('zh-CN');
    expect(detectLocale(['zh-TW', 'en'])).toBe('zh-CN');
    expect(detectLocale(['ZH-hans-CN'])).toBe('zh-CN');
  });

  it('takes the first language it can serve', () => {
    expect(detectLocale(['en-US', 'zh-CN'])).toBe('en');
    expect(detectLocale(['fr-FR', 'zh-CN'])).toBe('zh-CN');
  });

  it('defaults to English', () => {
    expect(detectLocale([])).toBe('en');
    expect(detectLocale(['de', 'ja'])).toBe('en');
  });
});

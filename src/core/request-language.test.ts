import { describe, expect, it } from 'vitest';
import { requestLanguage } from './request-language';

describe('requestLanguage', () => {
  it('is Chinese for a request in Chinese', () => {
    expect(requestLanguage('总结我的操作系统笔记')).toBe('zh');
    expect(requestLanguage('进程调度的时间片轮转是什么？')).toBe('zh');
  });

  it('is Chinese when English terms sit inside a Chinese sentence', () => {
    expect(requestLanguage('Kubernetes 的 Pod 是什么？')).toBe('zh');
  });

  it('stays English for English, empty or symbol-only requests', () => {
    expect(requestLanguage('Summarise my operating systems note')).toBe('en');
    expect(requestLanguage('')).toBe('en');
    expect(requestLanguage('?! 123 — “quoted”')).toBe('en');
  });

  it('does not take Japanese kana alone or Korean for Chinese', () => {
    expect(requestLanguage('こんにちは')).toBe('en');
    expect(requestLanguage('안녕하세요')).toBe('en');
  });
});

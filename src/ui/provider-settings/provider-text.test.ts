import { describe, expect, it } from 'vitest';
import { isCallableBaseUrl, presetNameKey, providerTestAdvice } from './provider-text';

describe('presetNameKey', () => {
  it('translates a word-name preset only while the provider keeps its preset name', () => {
    expect(presetNameKey('mock', 'Mock (scripted demo)', 'Mock (scripted demo)')).toBe(
      'settingsForm.preset.mock',
    );
    expect(presetNameKey('custom', 'OpenAI-compatible', 'OpenAI-compatible')).toBe(
      'settingsForm.preset.custom',
    );
    expect(presetNameKey('mock', '我的演示', 'Mock (scripted demo)')).toBeNull();
  });

  it('leaves brand names alone', () => {
    expect(presetNameKey('deepseek', 'DeepSeek', 'DeepSeek')).toBeNull();
  });
});

describe('isCallableBaseUrl', () => {
  it('accepts http(s) addresses and an empty field', () => {
    expect(isCallableBaseUrl('https://api.deepseek.com/v1')).toBe(true);
    expect(isCallableBaseUrl('http://localhost:11434')).toBe(true);
    expect(isCallableBaseUrl('  ')).toBe(true);
  });

  it('refuses what a browser cannot call', () => {
    expect(isCallableBaseUrl('api.deepseek.com')).toBe(false);
    expect(isCallableBaseUrl('ftp://example.com')).toBe(false);
    expect(isCallableBaseUrl('not a url')).toBe(false);
  });
});

describe('providerTestAdvice', () => {
  it('reads a 404 on the model list as a wrong address and a refused key as a key to check', () => {
    expect(providerTestAdvice('MODEL_NOT_FOUND')?.headline).toBe('settingsForm.test.notFound');
    expect(providerTestAdvice('PROVIDER_AUTH_FAILED')?.next).toBe('settingsForm.test.authFailedNext');
    expect(providerTestAdvice('PROVIDER_RATE_LIMITED')).toBeNull();
  });
});

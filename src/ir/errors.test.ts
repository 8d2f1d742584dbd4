import { describe, expect, it } from 'vitest';
import {
  isMetonaError,
  MetonaErrorCode,
  MetonaProviderError,
  metonaErrorSchema,
  type MetonaError,
} from './index';

const full: MetonaError = {
  code: MetonaErrorCode.RATE_LIMITED,
  message: 'Too many requests',
  provider: 'deepseek',
  providerCode: '429',
  retryable: true,
  retryAfterMs: 2000,
};

describe('MetonaProviderError', () => {
  it('round-trips a full error through from / toJSON / JSON text', () => {
    const error = MetonaProviderError.from(full);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('MetonaProviderError');
    expect(error.message).toBe('Too many requests');
    expect(error.toJSON()).toStrictEqual(full);
    const revived = MetonaProviderError.from(metonaErrorSchema.parse(JSON.parse(JSON.stringify(error))));
    expect(revived.toJSON()).toStrictEqual(full);
  });

  it('leaves absent optional fields absent', () => {
    const minimal: MetonaError = { code: 'user_aborted', message: 'stopped', retryable: false };
    expect(MetonaProviderError.from(minimal).toJSON()).toStrictEqual(minimal);
    expect(Object.keys(JSON.parse(JSON.stringify(MetonaProviderError.from(minimal))))).toEqual([
      'code',
      'message',
      'retryable',
    ]);
  });

  it('keeps the cause it was built with', () => {
    const cause = new TypeError('fetch failed');
    const error = new MetonaProviderError(
      { code: 'network_error', message: 'offline', retryable: true },
      { cause },
    );
    expect(error.cause).toBe(cause);
    expect(error.retryable).toBe(true);
  });
});

describe('isMetonaError', () => {
  it('accepts plain errors and provider error instances', () => {
    expect(isMetonaError(full)).toBe(true);
    expect(isMetonaError(MetonaProviderError.from(full))).toBe(true);
  });

  it.each([
    ['an unknown code', { ...full, code: 'bogus' }],
    ['a missing retryable', { code: 'unknown', message: 'x' }],
    ['a negative retryAfterMs', { ...full, retryAfterMs: -1 }],
    ['a plain Error', new Error('boom')],
    ['a string', 'network_error'],
    ['null', null],
  ])('rejects %s', (_name, value) => {
    expect(isMetonaError(value)).toBe(false);
  });
});

describe('MetonaErrorCode', () => {
  it('has exactly the 17 codes of the standard', () => {
    expect(Object.values(MetonaErrorCode)).toEqual([
      'network_timeout',
      'network_error',
      'auth_invalid',
      'auth_expired',
      'rate_limited',
      'quota_exceeded',
      'model_overloaded',
      'model_not_found',
      'context_length_exceeded',
      'output_length_exceeded',
      'content_filtered',
      'parse_error',
      'invalid_response',
      'max_iterations',
      'user_aborted',
      'timeout',
      'unknown',
    ]);
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { MetonaProviderError, type MetonaErrorCode } from '../../ir';
import { request } from './http';
import {
  DEVICE_OFFLINE,
  mapHttpError,
  parseRetryAfter,
  readErrorBody,
  streamInterruptedError,
  toAppError,
  toContractErrorCode,
  toMetonaError,
} from './errors';

const now = Date.parse('2026-08-31T10:30:00Z');
const headers = (init: Record<string, string> = {}) => new Headers(init);
const map = (status: number, body = '', init: Record<string, string> = {}) =>
  mapHttpError({ status, headers: headers(init), details: readErrorBody(body), provider: 'p', now });

describe('HTTP error mapping', () => {
  it.each<[number, string, MetonaErrorCode, boolean]>([
    [401, '{"error":{"message":"Invalid API key","type":"authentication_error"}}', 'auth_invalid', false],
    [403, '{"type":"error","error":{"type":"permission_error","message":"no"}}', 'auth_invalid', false],
    [402, '{"error":{"message":"Insufficient Balance"}}', 'quota_exceeded', false],
    [404, '{"error":"model \\"llama9\\" not found, try pulling it first"}', 'model_not_found', false],
    [429, '{"error":{"message":"Rate limit reached","code":"rate_limit_exceeded"}}', 'rate_limited', true],
    [
      429,
      '{"error":{"message":"You exceeded your quota","code":"insufficient_quota"}}',
      'quota_exceeded',
      false,
    ],
    [500, 'Internal Server Error', 'model_overloaded', true],
    [503, '{"error":{"message":"Server overloaded"}}', 'model_overloaded', true],
    [
      529,
      '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
      'model_overloaded',
      true,
    ],
    [
      400,
      '{"error":{"message":"This model\'s maximum context length is 65536 tokens","code":"invalid_request_error"}}',
      'context_length_exceeded',
      false,
    ],
    [
      400,
      '{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long"}}',
      'context_length_exceeded',
      false,
    ],
    [400, '{"error":{"message":"Invalid format"}}', 'unknown', false],
  ])('%i %s → %s', (status, body, code, retryable) => {
    const error = map(status, body);
    expect(error).toMatchObject({ code, retryable, provider: 'p' });
  });

  it('keeps the provider message but never the raw body', () => {
    expect(
      map(401, '{"error":{"message":"Invalid  API\\nkey","type":"authentication_error"}}'),
    ).toMatchObject({
      message: 'Invalid API key',
      providerCode: 'authentication_error',
    });
    expect(map(502, '<html>bad gateway</html>').message).not.toContain('<html>');
  });

  it('reads Retry-After as seconds, HTTP-date or retry-after-ms', () => {
    expect(map(429, '', { 'retry-after': '2' }).retryAfterMs).toBe(2000);
    expect(map(429, '', { 'retry-after': 'Mon, 31 Aug 2026 10:30:05 GMT' }).retryAfterMs).toBe(5000);
    expect(map(429, '', { 'retry-after-ms': '1500', 'retry-after': '9' }).retryAfterMs).toBe(1500);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('Mon, 31 Aug 2026 10:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('1.5', now)).toBe(1500);
  });
});

describe('thrown errors', () => {
  it('tells a user abort from a deadline, a network failure and a provider error', () => {
    const user = new AbortController();
    user.abort();
    expect(toMetonaError(new Error('x'), 'p', { signal: user.signal }).code).toBe('user_aborted');
    const deadline = new AbortController();
    deadline.abort();
    expect(toMetonaError(new Error('x'), 'p', { timeoutSignal: deadline.signal })).toMatchObject({
      code: 'network_timeout',
      retryable: true,
    });
    expect(toMetonaError(new TypeError('fetch failed'), 'p')).toMatchObject({
      code: 'network_error',
      retryable: true,
    });
    expect(toMetonaError(new DOMException('aborted', 'AbortError'), 'p').code).toBe('user_aborted');
    const provider = new MetonaProviderError({ code: 'rate_limited', message: 'slow', retryable: true });
    expect(toMetonaError(provider, 'p')).toEqual(provider.toJSON());
  });
});

describe('a request that fails while the device is offline', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  const refused = () => Promise.reject(new TypeError('Failed to fetch'));
  const call = (signal?: AbortSignal, url = 'https://api.deepseek.com/v1/models') =>
    request(url, { method: 'GET', headers: {} }, { fetch: refused, provider: 'deepseek', signal });
  const failure = async (promise: Promise<unknown>) => {
    try {
      await promise;
    } catch (error) {
      return toAppError(toMetonaError(error, 'deepseek'));
    }
    throw new Error('the request did not fail');
  };

  it('keeps naming the unreachable server while online', async () => {
    vi.stubGlobal('navigator', { onLine: true });
    const error = await failure(call());
    expect(error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(error.message).toBe('Could not reach the provider: Failed to fetch.');
  });

  it('says the device is offline, under the same contract code', async () => {
    vi.stubGlobal('navigator', { onLine: false });
    const metona = toMetonaError(new TypeError('Failed to fetch'), 'deepseek');
    expect(metona).toMatchObject({ code: 'network_error', providerCode: DEVICE_OFFLINE, retryable: true });
    const error = await failure(call());
    expect(error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(error.message).toBe('The device is offline: the provider could not be reached.');
  });

  it('keeps naming the server on this machine (a local Ollama), which needs no network', async () => {
    vi.stubGlobal('navigator', { onLine: false });
    for (const url of ['http://localhost:11434/api/chat', 'http://127.0.0.1:9/v1', 'http://[::1]:8080/v1']) {
      const error = await failure(call(undefined, url));
      expect(error.code).toBe('PROVIDER_UNAVAILABLE');
      expect(error.message).toBe('Could not reach the provider: Failed to fetch.');
    }
  });

  it('never reports a cancelled request as offline', async () => {
    vi.stubGlobal('navigator', { onLine: false });
    const user = new AbortController();
    user.abort();
    const error = await failure(call(user.signal));
    expect(error.code).toBe('JOB_CANCELLED');
    expect(toMetonaError(new DOMException('aborted', 'AbortError'), 'p').code).toBe('user_aborted');
  });
});

describe('contract codes', () => {
  it.each<[MetonaErrorCode, string]>([
    ['auth_invalid', 'PROVIDER_AUTH_FAILED'],
    ['auth_expired', 'PROVIDER_AUTH_FAILED'],
    ['rate_limited', 'PROVIDER_RATE_LIMITED'],
    ['quota_exceeded', 'PROVIDER_RATE_LIMITED'],
    ['network_timeout', 'PROVIDER_TIMEOUT'],
    ['network_error', 'PROVIDER_UNAVAILABLE'],
    ['model_overloaded', 'PROVIDER_UNAVAILABLE'],
    ['model_not_found', 'MODEL_NOT_FOUND'],
    ['context_length_exceeded', 'MODEL_CONTEXT_LENGTH_EXCEEDED'],
    ['parse_error', 'PROVIDER_PROTOCOL_ERROR'],
    ['invalid_response', 'PROVIDER_PROTOCOL_ERROR'],
    ['content_filtered', 'PROVIDER_CONTENT_FILTERED'],
    ['user_aborted', 'JOB_CANCELLED'],
  ])('%s → %s', (code, contract) => {
    expect(toContractErrorCode(code)).toBe(contract);
  });

  it('a network failure after the stream began is PROVIDER_STREAM_INTERRUPTED', () => {
    expect(toContractErrorCode('network_error', { midStream: true })).toBe('PROVIDER_STREAM_INTERRUPTED');
    const appError = toAppError(streamInterruptedError('deepseek'));
    expect(appError.code).toBe('PROVIDER_STREAM_INTERRUPTED');
    expect(appError.status).toBe(502);
    expect(appError.details).toEqual({ metona_code: 'network_error', retryable: true, provider: 'deepseek' });
  });
});

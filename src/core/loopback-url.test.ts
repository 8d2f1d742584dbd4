import { describe, expect, it } from 'vitest';
import { isLoopbackUrl } from './loopback-url';

describe('isLoopbackUrl', () => {
  it.each([
    'http://localhost:11434/v1',
    'http://ollama.localhost/v1',
    'http://127.0.0.1:8080',
    'http://127.12.0.3/v1',
    'http://[::1]:11434',
  ])('%s is on this machine', (url) => {
    expect(isLoopbackUrl(url)).toBe(true);
  });

  it.each([
    'https://api.deepseek.com/v1',
    'http://127.0.0.1.example.com/v1',
    'http://192.168.1.5:11434',
    'not a url',
    '',
    null,
    undefined,
  ])('%s is not', (url) => {
    expect(isLoopbackUrl(url)).toBe(false);
  });
});

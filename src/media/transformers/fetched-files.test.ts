import { describe, expect, it } from 'vitest';
import { watchFetchedFiles, type FetchingEnv } from './fetched-files';

function envAnswering(status: (url: string) => number): FetchingEnv & { requested: string[] } {
  const requested: string[] = [];
  return {
    requested,
    fetch: (input) => {
      requested.push(String(input));
      const code = status(String(input));
      return Promise.resolve({ ok: code >= 200 && code < 300, status: code });
    },
  };
}

describe('watchFetchedFiles', () => {
  it('counts a file fetched with a body, not one the local folder answered 404 for or one never fetched', async () => {
    const env = envAnswering((url) => (url.startsWith('/models/') ? 404 : 200));
    const files = watchFetchedFiles(env);
    await env.fetch!('/models/org/whisper/config.json');
    expect(files.fetched('config.json')).toBe(false);
    await env.fetch!('https://host.example/org/whisper/resolve/main/onnx/encoder%20model.onnx?download=1');
    expect(files.fetched('onnx/encoder model.onnx')).toBe(true);
    expect(files.fetched('encoder model.onnx')).toBe(true);
    expect(files.fetched('model.onnx')).toBe(false);
    expect(files.fetched('tokenizer.json')).toBe(false);
    expect(env.requested).toHaveLength(2);
  });

  it('wraps the library fetch once, however many loads watch it, and forgets on reset', async () => {
    const env = envAnswering(() => 200);
    const first = watchFetchedFiles(env);
    const wrapped = env.fetch;
    const second = watchFetchedFiles(env);
    expect(env.fetch).toBe(wrapped);
    await env.fetch!('https://host.example/m/resolve/main/config.json');
    expect(first.fetched('config.json')).toBe(true);
    expect(env.requested).toHaveLength(1);
    second.reset();
    expect(first.fetched('config.json')).toBe(false);
  });

  it('passes a failed fetch through unchanged and records nothing', async () => {
    const failure = new TypeError('Failed to fetch');
    const env: FetchingEnv = { fetch: () => Promise.reject(failure) };
    const files = watchFetchedFiles(env);
    await expect(env.fetch!('https://host.example/m/config.json')).rejects.toBe(failure);
    expect(files.fetched('config.json')).toBe(false);
  });
});

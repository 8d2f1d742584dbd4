import { describe, expect, it } from 'vitest';
import { asrModelHostSchema } from '../contracts';
import { asrEnvironment, DEFAULT_ASR_SETTINGS } from './asr-settings';

describe('model_host', () => {
  it('accepts hub-like URLs and app paths, adding the trailing slash', () => {
    expect(asrModelHostSchema.parse('https://huggingface.co')).toBe('https://huggingface.co/');
    expect(asrModelHostSchema.parse(' https://models.example.org/hf/ ')).toBe(
      'https://models.example.org/hf/',
    );
    expect(asrModelHostSchema.parse('http://127.0.0.1:8080/mirror')).toBe('http://127.0.0.1:8080/mirror/');
    expect(asrModelHostSchema.parse('/models')).toBe('/models/');
  });

  it('refuses other schemes, credentials, queries, protocol-relative and climbing paths', () => {
    for (const host of [
      'file:///etc/models',
      'ftp://models.example.org/',
      'https://user:secret@models.example.org/',
      'https://models.example.org/?token=1',
      '//evil.example.org/models',
      '/models/../../etc',
      'models/',
      '',
    ]) {
      expect(asrModelHostSchema.safeParse(host).success, host).toBe(false);
    }
  });
});

describe('asrEnvironment', () => {
  it('downloads from the hub by default, with the app-served WASM', () => {
    expect(asrEnvironment(DEFAULT_ASR_SETTINGS, { wasmPaths: { wasm: '/assets/ort.wasm' } })).toEqual({
      useBrowserCache: true,
      wasmPaths: { wasm: '/assets/ort.wasm' },
      allowLocalModels: false,
      allowRemoteModels: true,
      remoteHost: 'https://huggingface.co/',
    });
  });

  it('with downloads off, a URL host is not contacted (cached files only)', () => {
    expect(asrEnvironment({ ...DEFAULT_ASR_SETTINGS, allow_remote_models: false })).toMatchObject({
      allowLocalModels: false,
      allowRemoteModels: false,
    });
  });

  it('reads an app path as local model folders, never falling back to a download', () => {
    expect(asrEnvironment({ ...DEFAULT_ASR_SETTINGS, model_host: '/models/' })).toEqual({
      useBrowserCache: true,
      allowLocalModels: true,
      localModelPath: '/models/',
      allowRemoteModels: false,
    });
  });
});

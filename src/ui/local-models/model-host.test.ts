import { describe, expect, it } from 'vitest';
import { currentModelHost, DEFAULT_MODEL_HOST, parseModelHost } from './model-host';

const ORIGIN = 'http://localhost:4173';

describe('the one model host', () => {
  it('sends a mirror URL to every download, with a trailing slash', () => {
    expect(parseModelHost(' https://mirror.example/hf ', ORIGIN)).toEqual({
      ok: true,
      targets: {
        webllm: 'https://mirror.example/hf/',
        embedding: 'https://mirror.example/hf/',
        transcription: 'https://mirror.example/hf/',
      },
    });
  });

  it('treats empty and the hub itself as the default everywhere', () => {
    const defaults = { webllm: null, embedding: null, transcription: DEFAULT_MODEL_HOST };
    expect(parseModelHost('', ORIGIN)).toEqual({ ok: true, targets: defaults });
    expect(parseModelHost('https://huggingface.co', ORIGIN)).toEqual({ ok: true, targets: defaults });
  });

  it('keeps a path on this app a path for transcription and makes it a URL for the others', () => {
    expect(parseModelHost('/models', ORIGIN)).toEqual({
      ok: true,
      targets: {
        webllm: `${ORIGIN}/models/`,
        embedding: `${ORIGIN}/models/`,
        transcription: '/models/',
      },
    });
  });

  it('refuses other schemes, credentials, queries and text that is no address', () => {
    for (const input of [
      'ftp://mirror.example/',
      'https://user:secret@mirror.example/',
      'https://mirror.example/?token=1',
      '/models/?x',
      '//mirror.example/',
      'mirror',
    ])
      expect(parseModelHost(input, ORIGIN)).toEqual({ ok: false });
  });

  it('shows the stored host, preferring the first one that is not the default', () => {
    expect(currentModelHost({ webllm: null, embedding: null, transcription: DEFAULT_MODEL_HOST })).toBe('');
    expect(
      currentModelHost({ webllm: 'https://a.example/', embedding: null, transcription: DEFAULT_MODEL_HOST }),
    ).toBe('https://a.example/');
    expect(
      currentModelHost({
        webllm: `${ORIGIN}/models/`,
        embedding: `${ORIGIN}/models/`,
        transcription: '/models/',
      }),
    ).toBe('/models/');
  });
});

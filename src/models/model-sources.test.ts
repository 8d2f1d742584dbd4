import { describe, expect, it } from 'vitest';
import { DEFAULT_MODEL_SOURCES, modelUrls, normalizeHost } from './model-sources';

const entry = {
  sourceUrl: 'https://huggingface.co/mlc-ai/Tiny-q4f32_1-MLC',
  modelLib: 'https://raw.githubusercontent.com/mlc-ai/binary-mlc-llm-libs/main/web-llm-models/v1/Tiny.wasm',
};

describe('model sources', () => {
  it('keeps the original hosts by default', () => {
    expect(modelUrls(entry, DEFAULT_MODEL_SOURCES)).toEqual({
      model: entry.sourceUrl,
      modelLib: entry.modelLib,
    });
  });

  it('moves weights and libraries to mirrors with the same layout', () => {
    expect(modelUrls(entry, { modelHost: 'https://hf-mirror.com/', libHost: 'http://lan.test/gh/' })).toEqual(
      {
        model: 'https://hf-mirror.com/mlc-ai/Tiny-q4f32_1-MLC',
        modelLib: 'http://lan.test/gh/mlc-ai/binary-mlc-llm-libs/main/web-llm-models/v1/Tiny.wasm',
      },
    );
  });

  it('accepts only http(s) URLs without query, adding the trailing slash', () => {
    expect(normalizeHost(' https://hf-mirror.com ')).toBe('https://hf-mirror.com/');
    expect(normalizeHost('http://127.0.0.1:4323/hub')).toBe('http://127.0.0.1:4323/hub/');
    expect(normalizeHost('hf-mirror.com')).toBeUndefined();
    expect(normalizeHost('ftp://host/')).toBeUndefined();
    expect(normalizeHost('https://host/?x=1')).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { MODEL_FILES_CACHE } from '../model-files-cache';
import { modelsOnDevice, type ModelFileCaches } from './models-on-device';

function cacheWith(urls: string[] | null): ModelFileCaches {
  return {
    has: async (name) => urls !== null && name === MODEL_FILES_CACHE,
    open: async () => ({ keys: async () => (urls ?? []).map((url) => ({ url })) }),
  };
}

const E5 = 'Xenova/multilingual-e5-small';
const MINI = 'Xenova/all-MiniLM-L6-v2';

describe('modelsOnDevice', () => {
  it('names the models with files in the model cache, from any host', async () => {
    const store = cacheWith([
      `https://models.example.test/${E5}/resolve/main/config.json`,
      `https://huggingface.co/${E5}/resolve/main/onnx/model_quantized.onnx`,
      'https://huggingface.co/Xenova/other/resolve/main/config.json',
    ]);
    expect(await modelsOnDevice([E5, MINI], store)).toEqual(new Set([E5]));
  });

  it('a model whose id is a prefix of a cached one is not on the device', async () => {
    const store = cacheWith([`https://huggingface.co/${E5}-v2/resolve/main/config.json`]);
    expect(await modelsOnDevice([E5], store)).toEqual(new Set());
  });

  it('is empty before any download, and unknown without the Cache API', async () => {
    expect(await modelsOnDevice([E5], cacheWith(null))).toEqual(new Set());
    expect(await modelsOnDevice([E5], undefined)).toBeNull();
    const broken: ModelFileCaches = {
      has: async () => {
        throw new Error('denied');
      },
      open: async () => ({ keys: async () => [] }),
    };
    expect(await modelsOnDevice([E5], broken)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import {
  DEFAULT_EMBEDDING_MODEL_ID,
  EMBEDDING_MODELS,
  embeddingModelFiles,
  embeddingModelFileUrl,
  findEmbeddingModel,
  resolveEmbeddingModel,
} from './embedding-models';
import { relevanceFloorOf } from './transformers-embedder';

describe('the embedding model catalog', () => {
  it('offers small models that handle Chinese and English, with sizes and pooling', () => {
    expect(new Set(EMBEDDING_MODELS.map((model) => model.model_id)).size).toBe(EMBEDDING_MODELS.length);
    expect(findEmbeddingModel(DEFAULT_EMBEDDING_MODEL_ID)?.languages).toContain('zh');
    expect(EMBEDDING_MODELS.filter((model) => model.languages.includes('zh')).length).toBeGreaterThanOrEqual(
      3,
    );
    for (const model of EMBEDDING_MODELS) {
      expect(model.dimension).toBeGreaterThan(0);
      expect(['mean', 'cls']).toContain(model.pooling);
      expect(model.normalize).toBe(true);
      expect(model.approx_download_mb.q8).toBeLessThan(200);
      expect(model.approx_download_mb[model.default_dtype.wasm]).toBeGreaterThan(0);
      expect(model.approx_download_mb[model.default_dtype.webgpu]).toBeGreaterThan(0);
    }
  });

  it('gives e5 its query and passage prefixes', () => {
    expect(resolveEmbeddingModel('Xenova/multilingual-e5-small')).toMatchObject({
      query_prefix: 'query: ',
      passage_prefix: 'passage: ',
      dimension: 384,
      pooling: 'mean',
    });
  });

  it('names an unknown model with EMBEDDING_MODEL_UNAVAILABLE', () => {
    expect(() => resolveEmbeddingModel('nobody/nothing')).toThrowError(
      expect.objectContaining({ code: 'EMBEDDING_MODEL_UNAVAILABLE' }) as Error,
    );
  });

  it('lists the files per dtype and builds their URLs on the hub or a self-hosted mirror', () => {
    expect(embeddingModelFiles('q8')).toEqual([
      'config.json',
      'tokenizer.json',
      'tokenizer_config.json',
      'onnx/model_quantized.onnx',
    ]);
    const spec = { model_id: 'Xenova/bge-small-zh-v1.5', revision: 'main' };
    expect(embeddingModelFileUrl(spec, 'onnx/model.onnx')).toBe(
      'https://huggingface.co/Xenova/bge-small-zh-v1.5/resolve/main/onnx/model.onnx',
    );
    expect(
      embeddingModelFileUrl(spec, 'config.json', {
        remote_host: 'https://models.example.org/ai/',
        remote_path_template: '{model}/{revision}/',
      }),
    ).toBe('https://models.example.org/ai/Xenova/bge-small-zh-v1.5/main/config.json');
  });

  it('applies a relevance floor only where one was measured; a saved spec keeps its own, else the catalog decides', () => {
    // Unmeasured floors would be guesses that could hide real matches: none of the
    // downloadable models carries one until it is measured on the evaluation corpus.
    for (const model of EMBEDDING_MODELS) expect(model.relevance_floor, model.model_id).toBeUndefined();
    const saved = { ...resolveEmbeddingModel(DEFAULT_EMBEDDING_MODEL_ID), relevance_floor: undefined };
    expect(relevanceFloorOf(saved)).toEqual(findEmbeddingModel(DEFAULT_EMBEDDING_MODEL_ID)?.relevance_floor);
    expect(relevanceFloorOf({ ...saved, relevance_floor: { min_cosine: 0.5 } })).toEqual({ min_cosine: 0.5 });
    expect(relevanceFloorOf({ ...saved, model_id: 'someone/unknown' })).toBeUndefined();
  });
});

import type { EmbeddingModelSource, EmbeddingModelSpec } from '../../embedding-models';
import type { RerankerModelSpec } from '../../reranker-models';
import { TINY_CROSS_ENCODER_ID } from './tiny-cross-encoder';
import { TINY_MODEL_DEFAULT_DIMENSION } from './tiny-embedding-model';

/** The id the tests and the end-to-end runs give the tiny model. */
export const TINY_MODEL_ID = 'notes-agent/tiny-embedding';

/** A catalog entry for a generated tiny model: fp32 only (the generator writes `onnx/model.onnx`). */
export function tinyModelSpec(overrides: Partial<EmbeddingModelSpec> = {}): EmbeddingModelSpec {
  return {
    model_id: TINY_MODEL_ID,
    label: 'Tiny test model (generated)',
    languages: ['zh', 'en'],
    revision: 'main',
    dimension: TINY_MODEL_DEFAULT_DIMENSION,
    pooling: 'mean',
    normalize: true,
    query_prefix: '',
    passage_prefix: '',
    max_tokens: 512,
    default_dtype: { webgpu: 'fp32', wasm: 'fp32' },
    approx_download_mb: { fp32: 0.5 },
    ...overrides,
  };
}

/** A catalog entry for the generated tiny cross-encoder, fp32 only as well. */
export function tinyCrossEncoderSpec(overrides: Partial<RerankerModelSpec> = {}): RerankerModelSpec {
  return {
    model_id: TINY_CROSS_ENCODER_ID,
    label: 'Tiny cross-encoder (generated)',
    languages: ['zh', 'en'],
    revision: 'main',
    max_tokens: 512,
    default_dtype: { webgpu: 'fp32', wasm: 'fp32' },
    approx_download_mb: { fp32: 0.4 },
    ...overrides,
  };
}

/** Load only from `localModelPath`, never from the network. */
export function localOnlySource(localModelPath: string): EmbeddingModelSource {
  return {
    allow_local_models: true,
    local_model_path: localModelPath,
    allow_remote_models: false,
    use_cache: false,
  };
}

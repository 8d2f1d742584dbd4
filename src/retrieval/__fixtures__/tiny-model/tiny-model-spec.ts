import type { EmbeddingModelSource, EmbeddingModelSpec } from '../../embedding-models';
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

/** Load only from `localModelPath`, never from the network. */
export function localOnlySource(localModelPath: string): EmbeddingModelSource {
  return {
    allow_local_models: true,
    local_model_path: localModelPath,
    allow_remote_models: false,
    use_cache: false,
  };
}

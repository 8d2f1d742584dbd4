import type { EmbeddingDevice, EmbeddingDtype } from './embedding-models';

/** The cross-encoders the reranker offers (the model runs in ./transformers-reranker.ts). */
export interface RerankerModelSpec {
  model_id: string;
  label: string;
  languages: ReadonlyArray<'zh' | 'en' | 'multilingual'>;
  revision: string;
  /** Query and passage together are truncated to this many tokens. */
  max_tokens: number;
  default_dtype: Record<EmbeddingDevice, EmbeddingDtype>;
  /** Approximate download per dtype, MB (guidance only, as in embedding-models.ts). */
  approx_download_mb: Partial<Record<EmbeddingDtype, number>>;
}

/**
 * Cross-encoders with ONNX exports transformers.js loads. Sizes are
 * approximate: the parameter counts times the bytes per weight.
 */
export const RERANKER_MODELS: readonly RerankerModelSpec[] = [
  {
    // BAAI bge-reranker-base (XLM-R base, 278M parameters): Chinese and English.
    model_id: 'Xenova/bge-reranker-base',
    label: 'BGE reranker base (中文 + English)',
    languages: ['multilingual', 'zh', 'en'],
    revision: 'main',
    max_tokens: 512,
    default_dtype: { webgpu: 'fp32', wasm: 'q8' },
    approx_download_mb: { fp32: 1110, q8: 280 },
  },
  {
    // ms-marco MiniLM-L-6 (23M parameters): small and fast, English only.
    model_id: 'Xenova/ms-marco-MiniLM-L-6-v2',
    label: 'MS MARCO MiniLM-L6 (English)',
    languages: ['en'],
    revision: 'main',
    max_tokens: 512,
    default_dtype: { webgpu: 'fp32', wasm: 'q8' },
    approx_download_mb: { fp32: 91, q8: 23 },
  },
];

export function findRerankerModel(
  modelId: string,
  models: readonly RerankerModelSpec[] = RERANKER_MODELS,
): RerankerModelSpec | undefined {
  return models.find((model) => model.model_id === modelId);
}

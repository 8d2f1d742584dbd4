import { AppError } from '../contracts/errors';
import type { RelevanceFloor } from './embedder';

/**
 * Sentence-embedding models the app offers for vector search, all
 * ONNX exports that transformers.js' `feature-extraction` pipeline loads, and
 * where their files come from.
 *
 * Download sizes are APPROXIMATE, in MB, for guidance in the UI only: the ONNX
 * file sizes the Hugging Face hub lists for these repositories (fp32
 * `model.onnx`, fp16 `model_fp16.onnx`, q8 `model_quantized.onnx`) plus the
 * tokenizer (about 17 MB for the XLM-R vocabulary of the multilingual models,
 * under 1 MB for the BERT ones). The real sizes arrive with the download
 * progress.
 */

export const EMBEDDING_DTYPES = ['fp32', 'fp16', 'q8'] as const;
export type EmbeddingDtype = (typeof EMBEDDING_DTYPES)[number];
export type EmbeddingPooling = 'mean' | 'cls';
export type EmbeddingDevice = 'webgpu' | 'wasm';

/**
 * What defines a model's vectors: the same spec and weights give the same
 * vectors. Plain data, so it crosses the worker boundary and can be stored in
 * settings.
 */
export interface EmbeddingModelSpec {
  /** Hub-style id; also the folder under a local model path or a self-hosted mirror. */
  model_id: string;
  label: string;
  /** Languages it is good at; every model here must handle Chinese and English text. */
  languages: ReadonlyArray<'zh' | 'en' | 'multilingual'>;
  /** Git revision on the hub (branch, tag or commit); ignored for local files. */
  revision: string;
  /** Length of the pooled vector. */
  dimension: number;
  pooling: EmbeddingPooling;
  /** L2-normalise the pooled vector (all models here are trained for cosine). */
  normalize: boolean;
  /** Prepended to search queries (e5: `query: `; bge: an instruction, optional). */
  query_prefix: string;
  /** Prepended to the texts being indexed (e5: `passage: `). */
  passage_prefix: string;
  /** Longer inputs are truncated by the tokenizer. */
  max_tokens: number;
  /** Weights per back end when the caller does not choose: WebGPU runs fp32 well, WASM is faster on q8. */
  default_dtype: Record<EmbeddingDevice, EmbeddingDtype>;
  /** Approximate download per dtype, MB (see the module note). */
  approx_download_mb: Partial<Record<EmbeddingDtype, number>>;
  /**
   * Vector hits below this are dropped (see RelevanceFloor). Absent: the floor
   * is measured on the user's notebook with the model itself when its vectors
   * are built (relevance-calibration.ts); a floor given here wins over that.
   */
  relevance_floor?: RelevanceFloor;
}

const both = (webgpu: EmbeddingDtype, wasm: EmbeddingDtype): Record<EmbeddingDevice, EmbeddingDtype> => ({
  webgpu,
  wasm,
});

export const EMBEDDING_MODELS: readonly EmbeddingModelSpec[] = [
  {
    // intfloat/multilingual-e5-small: 100 languages, good Chinese and English
    // retrieval for its size. Needs the e5 prefixes or quality drops sharply.
    model_id: 'Xenova/multilingual-e5-small',
    label: 'Multilingual E5 small (中文 + English)',
    languages: ['multilingual', 'zh', 'en'],
    revision: 'main',
    dimension: 384,
    pooling: 'mean',
    normalize: true,
    query_prefix: 'query: ',
    passage_prefix: 'passage: ',
    max_tokens: 512,
    default_dtype: both('fp32', 'q8'),
    approx_download_mb: { fp32: 487, fp16: 252, q8: 135 },
    // No constant floor until one is measured on the evaluation corpus (the weights
    // cannot be fetched where the tests run): meanwhile it is calibrated per notebook
    // from nonsense probes (relevance-calibration.ts). e5 is trained with a temperature
    // of 0.01, so its cosines crowd into 0.7-1.0 (its model card says so): unrelated
    // pairs land near 0.7-0.75, so a measured floor is likely near 0.78. A guessed
    // floor could hide a user's real matches, which is worse than showing weak ones.
  },
  {
    // sentence-transformers' paraphrase model distilled into 50+ languages;
    // symmetric (no prefixes), shorter context.
    model_id: 'Xenova/paraphrase-multilingual-MiniLM-L12-v2',
    label: 'Paraphrase multilingual MiniLM-L12 (中文 + English)',
    languages: ['multilingual', 'zh', 'en'],
    revision: 'main',
    dimension: 384,
    pooling: 'mean',
    normalize: true,
    query_prefix: '',
    passage_prefix: '',
    max_tokens: 128,
    default_dtype: both('fp32', 'q8'),
    approx_download_mb: { fp32: 487, fp16: 252, q8: 135 },
    // No constant floor until measured (calibrated per notebook meanwhile), as for e5 above: a paraphrase model spreads unrelated
    // pairs around 0 (±0.15) and puts paraphrases above 0.5.
  },
  {
    // BAAI bge-small-zh-v1.5: the smallest download that is strong on Chinese;
    // its BERT-Chinese vocabulary covers common English words, less well.
    model_id: 'Xenova/bge-small-zh-v1.5',
    label: 'BGE small zh v1.5 (中文为主)',
    languages: ['zh', 'en'],
    revision: 'main',
    dimension: 512,
    pooling: 'cls',
    normalize: true,
    // BGE recommends this instruction for short queries against passages.
    query_prefix: '为这个句子生成表示以用于检索相关文章：',
    passage_prefix: '',
    max_tokens: 512,
    default_dtype: both('fp32', 'q8'),
    approx_download_mb: { fp32: 96, fp16: 48, q8: 25 },
    // No constant floor until measured (calibrated per notebook meanwhile), as for e5 above: BGE v1.5 flattened v1's 0.6-1.0
    // crowding; unrelated passages mostly score 0.2-0.35.
  },
  {
    // BAAI bge-small-en-v1.5: English notes; Chinese text maps mostly to
    // [UNK], so pick it only for an English notebook.
    model_id: 'Xenova/bge-small-en-v1.5',
    label: 'BGE small en v1.5 (English)',
    languages: ['en'],
    revision: 'main',
    dimension: 384,
    pooling: 'cls',
    normalize: true,
    query_prefix: 'Represent this sentence for searching relevant passages: ',
    passage_prefix: '',
    max_tokens: 512,
    default_dtype: both('fp32', 'q8'),
    approx_download_mb: { fp32: 134, q8: 35 },
    // No constant floor until measured (calibrated per notebook meanwhile), as for e5 above; as bge-small-zh, with the English
    // instruction prefix lifting every query's cosines a little.
  },
];

/** The model offered first: multilingual, Chinese and English in one vector space. */
export const DEFAULT_EMBEDDING_MODEL_ID = 'Xenova/multilingual-e5-small';

export function findEmbeddingModel(
  modelId: string,
  models: readonly EmbeddingModelSpec[] = EMBEDDING_MODELS,
): EmbeddingModelSpec | undefined {
  return models.find((model) => model.model_id === modelId);
}

export function resolveEmbeddingModel(
  modelId: string,
  models: readonly EmbeddingModelSpec[] = EMBEDDING_MODELS,
): EmbeddingModelSpec {
  const found = findEmbeddingModel(modelId, models);
  if (!found) {
    throw new AppError(
      'EMBEDDING_MODEL_UNAVAILABLE',
      `There is no embedding model "${modelId}" in the catalog.`,
      {
        model_id: modelId,
        available: models.map((model) => model.model_id),
      },
    );
  }
  return found;
}

/**
 * Where model files come from. The defaults download from the Hugging Face hub
 * and keep the files in the browser's Cache Storage; an organisation that
 * serves the weights itself sets `remote_host` (and the path template, when its
 * layout differs) and every download goes there instead.
 */
export interface EmbeddingModelSource {
  /** Look under `local_model_path` first (a URL path in the browser, a folder in Node). */
  allow_local_models: boolean;
  local_model_path?: string;
  /** Download what is not local. False: offline-only, missing files fail fast. */
  allow_remote_models: boolean;
  /** Base URL of the model host, e.g. `https://models.example.org/`. */
  remote_host?: string;
  /** Appended to `remote_host`: `{model}` and `{revision}` are filled in. */
  remote_path_template?: string;
  /**
   * Where the ONNX Runtime WASM files are served: a URL prefix, or the two
   * files' URLs. Unset, transformers.js fetches them from a CDN, so an
   * offline app must serve them itself (the build emits the `.wasm`).
   */
  wasm_paths?: string | { mjs: string; wasm: string };
  /** Keep downloaded files (browser Cache Storage, or the file cache in Node). */
  use_cache?: boolean;
  /**
   * Node only: the folder of the file cache. Node loads ONNX files from disk,
   * so a download there needs the cache on. The browser uses Cache Storage.
   */
  cache_dir?: string;
}

export const HUGGING_FACE_HOST = Object.freeze({
  remote_host: 'https://huggingface.co/',
  remote_path_template: '{model}/resolve/{revision}/',
});

export const DEFAULT_EMBEDDING_MODEL_SOURCE: Readonly<EmbeddingModelSource> = Object.freeze({
  allow_local_models: false,
  allow_remote_models: true,
  ...HUGGING_FACE_HOST,
  use_cache: true,
});

/** transformers.js file-name suffix of each dtype under `onnx/`. */
const DTYPE_SUFFIX: Record<EmbeddingDtype, string> = { fp32: '', fp16: '_fp16', q8: '_quantized' };

/**
 * The files a model needs at a dtype, relative to its folder: what a mirror
 * must serve, and what the download job fetches.
 */
export function embeddingModelFiles(dtype: EmbeddingDtype): string[] {
  return ['config.json', 'tokenizer.json', 'tokenizer_config.json', `onnx/model${DTYPE_SUFFIX[dtype]}.onnx`];
}

/** The URL of one model file on a remote host (Hugging Face's layout unless the source says otherwise). */
export function embeddingModelFileUrl(
  spec: Pick<EmbeddingModelSpec, 'model_id' | 'revision'>,
  file: string,
  source: Pick<EmbeddingModelSource, 'remote_host' | 'remote_path_template'> = HUGGING_FACE_HOST,
): string {
  const host = source.remote_host ?? HUGGING_FACE_HOST.remote_host;
  const template = source.remote_path_template ?? HUGGING_FACE_HOST.remote_path_template;
  const path = template
    .replaceAll('{model}', spec.model_id)
    .replaceAll('{revision}', encodeURIComponent(spec.revision));
  // Joined as transformers.js joins them: one slash between the parts.
  return [host, path, file].map((part) => part.replace(/^\/+|\/+$/g, '')).join('/');
}

import type * as Transformers from '@huggingface/transformers';
import { AppError } from '../contracts/errors';
import { sha256Hex, stableStringify } from '../core/stable-json';
import {
  dtypeSlot,
  loadInTurn,
  loadOnFirstDevice,
  openRuntime,
  progressReporter,
} from '../models/transformers';
import type { EmbeddingDtype, EmbeddingModelSource } from './embedding-models';
import type { Reranker } from './hybrid-search';
import { toEmbeddingModelError } from './model-load-errors';
import type { RerankerModelSpec } from './reranker-models';
import {
  defaultEnvironment,
  type EmbedderDevice,
  type EmbedderDevicePreference,
  type EmbedderEnvironment,
  type EmbedderLoadOptions,
} from './transformers-embedder';

/**
 * A cross-encoder reranker on transformers.js: the query and each
 * candidate block go through the model together, as one text-classification
 * input pair (token types 0 and 1), and the relevance logit orders them.
 * Used by hybridSearch when the RetrievalProfile's `rerank` is on.
 *
 * It loads the tokenizer and the sequence-classification model directly (what
 * the `text-classification` pipeline does inside) so the raw logit is the
 * score: the pipeline would squash one-logit models through a sigmoid and
 * report only the top label of two-label ones.
 */

export interface TransformersRerankerConfig {
  model: RerankerModelSpec;
  source: EmbeddingModelSource;
  dtype?: EmbeddingDtype;
  device?: EmbedderDevicePreference;
  /** Pairs per inference call; the abort signal is checked between batches. Default 8. */
  batch_size?: number;
}

export const DEFAULT_RERANK_BATCH_SIZE = 8;

export class TransformersReranker implements Reranker {
  readonly info: { model_id: string; model_version: string };
  readonly device: EmbedderDevice;
  readonly dtype: EmbeddingDtype;
  readonly #config: TransformersRerankerConfig;
  readonly #tokenizer: Transformers.PreTrainedTokenizer;
  readonly #model: Transformers.PreTrainedModel;
  #disposed = false;

  private constructor(
    config: TransformersRerankerConfig,
    tokenizer: Transformers.PreTrainedTokenizer,
    model: Transformers.PreTrainedModel,
    info: { model_id: string; model_version: string },
    device: EmbedderDevice,
    dtype: EmbeddingDtype,
  ) {
    this.#config = config;
    this.dtype = dtype;
    this.#tokenizer = tokenizer;
    this.#model = model;
    this.info = info;
    this.device = device;
  }

  /**
   * Loads the model (downloading what the source allows). Failures are
   * `EMBEDDING_MODEL_UNAVAILABLE` with `details.kind = 'reranker'` (the
   * contract has no reranker code); an abort rejects with an AbortError.
   */
  static async load(
    config: TransformersRerankerConfig,
    options: EmbedderLoadOptions = {},
    environment: EmbedderEnvironment = defaultEnvironment,
  ): Promise<TransformersReranker> {
    return loadInTurn(options.signal, () => TransformersReranker.#loadNow(config, options, environment));
  }

  static async #loadNow(
    config: TransformersRerankerConfig,
    options: EmbedderLoadOptions,
    environment: EmbedderEnvironment,
  ): Promise<TransformersReranker> {
    const modelId = config.model.model_id;
    const { library: transformers, devices } = await openRuntime(
      () => environment.importTransformers(),
      config.source,
      config.device ?? 'auto',
      environment,
      (error) => rerankerError(error, modelId),
    );
    return loadOnFirstDevice(
      devices,
      async (device) => {
        options.signal?.throwIfAborted();
        const dtype = config.dtype ?? config.model.default_dtype[dtypeSlot(device)];
        const report = progressReporter(options.onProgress);
        let model: Transformers.PreTrainedModel | undefined;
        try {
          const tokenizer = await transformers.AutoTokenizer.from_pretrained(modelId, {
            revision: config.model.revision,
            progress_callback: report.callback,
          });
          model = await transformers.AutoModelForSequenceClassification.from_pretrained(modelId, {
            revision: config.model.revision,
            dtype,
            ...(device === 'cpu' ? {} : { device }),
            progress_callback: report.callback,
          });
          const { normalized_config: _derived, ...modelConfig } = model.config as unknown as Record<
            string,
            unknown
          >;
          const fingerprint = stableStringify({ config: modelConfig, max_tokens: config.model.max_tokens });
          const info = {
            model_id: modelId,
            model_version: `${config.model.revision}.${dtype}.${(await sha256Hex(fingerprint)).slice(0, 16)}`,
          };
          const reranker = new TransformersReranker(config, tokenizer, model, info, device, dtype);
          // One probe pair: a model that is not a classifier fails here, not in the first search.
          await reranker.score('probe 探测', ['probe 探测']);
          report.ready();
          return reranker;
        } catch (error) {
          if (model) await model.dispose().catch(() => undefined);
          throw rerankerError(error, modelId);
        }
      },
      (error) => error instanceof AppError && error.details.reason === 'load_failed',
    );
  }

  /** One relevance score per text, for (query, text) pairs; higher is more relevant. */
  async score(query: string, texts: string[], options: { signal?: AbortSignal } = {}): Promise<number[]> {
    const { signal } = options;
    signal?.throwIfAborted();
    if (this.#disposed) {
      throw new AppError('EMBEDDING_MODEL_UNAVAILABLE', 'The reranker model was unloaded; load it again.', {
        model_id: this.info.model_id,
        kind: 'reranker',
        reason: 'unloaded',
      });
    }
    const size = this.#config.batch_size ?? DEFAULT_RERANK_BATCH_SIZE;
    const batchSize = Number.isInteger(size) && size > 0 ? size : DEFAULT_RERANK_BATCH_SIZE;
    const scores: number[] = [];
    for (let start = 0; start < texts.length; start += batchSize) {
      signal?.throwIfAborted();
      scores.push(...(await this.#scoreBatch(query, texts.slice(start, start + batchSize))));
    }
    signal?.throwIfAborted();
    return scores;
  }

  async dispose(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    await this.#model.dispose().catch(() => undefined);
  }

  async #scoreBatch(query: string, passages: string[]): Promise<number[]> {
    try {
      const inputs = this.#tokenizer(
        passages.map(() => query),
        {
          text_pair: passages,
          padding: true,
          truncation: true,
          max_length: this.#config.model.max_tokens,
        },
      );
      const { logits } = (await this.#model(inputs)) as { logits: Transformers.Tensor };
      const [rows, labels = 1] = logits.dims;
      const data = logits.data as Float32Array;
      if (rows !== passages.length)
        throw new Error(`expected ${passages.length} rows of logits, got ${rows}`);
      // One logit: the relevance. Two or more: the last label ("relevant") against the first.
      return passages.map((_, row) =>
        labels === 1 ? (data[row] ?? 0) : (data[row * labels + labels - 1] ?? 0) - (data[row * labels] ?? 0),
      );
    } catch (error) {
      throw new AppError(
        'EMBEDDING_MODEL_UNAVAILABLE',
        `The reranker model "${this.info.model_id}" failed while scoring.`,
        { model_id: this.info.model_id, kind: 'reranker', reason: 'inference_failed' },
        { cause: error },
      );
    }
  }
}

function rerankerError(error: unknown, modelId: string): unknown {
  const mapped = toEmbeddingModelError(error, modelId);
  if (!(mapped instanceof AppError) || mapped.code !== 'EMBEDDING_MODEL_UNAVAILABLE') return mapped;
  const reason = typeof mapped.details.reason === 'string' ? mapped.details.reason : 'load_failed';
  const messages: Record<string, string> = {
    missing_files: `The reranker model "${modelId}" is not available: its files are not on this device and could not be downloaded.`,
    network: `The reranker model "${modelId}" could not be downloaded: the model host cannot be reached.`,
  };
  return new AppError(
    'EMBEDDING_MODEL_UNAVAILABLE',
    messages[reason] ?? `The reranker model "${modelId}" could not be loaded.`,
    { ...mapped.details, kind: 'reranker', reason },
    { cause: error },
  );
}

import {
  AppError,
  BUILTIN_EMBEDDING_MODEL_ID,
  isAbortError,
  type BenchmarkEmbeddingSnapshot,
} from '../contracts';
import { HashEmbedder } from '../retrieval';
import { EMBEDDING_MODELS, findEmbeddingModel, type EmbeddingModelSpec } from '../retrieval/embedding-models';
import type { EmbedderPair } from '../retrieval/search-indexer';
import type { EmbedderDevicePreference } from '../retrieval/transformers-embedder';
import type { EmbeddingEngine } from './embedding-engine';
import { modelSource } from './model-download';
import type { EmbeddingModelSource } from '../retrieval/embedding-models';

/**
 * The embedding models a RAG run compares, loaded one after another in the
 * benchmark's own engine: never the engine (or the model) the user's notebook
 * index uses, so a run neither unloads nor replaces the user's choice.
 */
export interface BenchmarkEmbedders {
  /** What a run may name, as the catalog describes it; undefined for a model it cannot load. */
  describe(modelId: string): BenchmarkEmbeddingSnapshot | undefined;
  /**
   * Loads a model already on this device (nothing is downloaded). A model that
   * is not fails EMBEDDING_MODEL_UNAVAILABLE naming it; an abort stops the load.
   */
  load(modelId: string, signal: AbortSignal): Promise<EmbedderPair>;
  /** Frees whatever `load` loaded (the run is over). */
  release(): void;
}

export interface EngineEmbeddersOptions {
  /** The benchmark's engine: in the app its own embed worker, apart from the user's. */
  engine?: EmbeddingEngine | undefined;
  models?: readonly EmbeddingModelSpec[] | undefined;
  source?: Partial<EmbeddingModelSource> | undefined;
  device?: EmbedderDevicePreference | undefined;
  /** The model host the user chose: a downloaded model's files are cached under its URLs. */
  remoteHost: () => Promise<string | null>;
}

const HASH_SNAPSHOT: BenchmarkEmbeddingSnapshot = { ...new HashEmbedder().info };

/**
 * hash-v1 in the run itself, every other catalog model in `engine`, read
 * from the browser's model cache only: a benchmark never starts a download
 * the user did not ask for in Settings.
 */
export function engineBenchmarkEmbedders(options: EngineEmbeddersOptions): BenchmarkEmbedders {
  const models = options.models ?? EMBEDDING_MODELS;
  const engine = options.engine;
  let used = false;
  return {
    describe(modelId) {
      if (modelId === BUILTIN_EMBEDDING_MODEL_ID) return { ...HASH_SNAPSHOT };
      const spec = engine ? findEmbeddingModel(modelId, models) : undefined;
      return spec
        ? {
            model_id: spec.model_id,
            model_version: spec.revision,
            dimension: spec.dimension,
            normalization: spec.normalize ? 'l2' : 'none',
          }
        : undefined;
    },
    async load(modelId, signal) {
      signal.throwIfAborted();
      if (modelId === BUILTIN_EMBEDDING_MODEL_ID) {
        const hash = new HashEmbedder();
        return { passages: hash, queries: hash };
      }
      const spec = findEmbeddingModel(modelId, models);
      if (!spec || !engine) throw unavailable(modelId, spec ? 'runtime_unavailable' : 'unknown_model');
      const source: EmbeddingModelSource = {
        ...modelSource(options.source ?? {}, await options.remoteHost()),
        // Only what is on this device: the cache first, then a local path the
        // app does not serve, never the model host.
        allow_remote_models: false,
        allow_local_models: true,
        local_model_path: options.source?.local_model_path ?? '/benchmark-offline-models/',
        use_cache: options.source?.use_cache ?? true,
      };
      used = true;
      const onAbort = (): void => engine.stop();
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        const embedder = await engine.load(
          { model: spec, source, device: options.device ?? 'auto' },
          { signal },
        );
        signal.throwIfAborted();
        return { passages: embedder, queries: embedder.forQueries() };
      } catch (error) {
        if (signal.aborted || isAbortError(error)) throw error;
        throw new AppError(
          'EMBEDDING_MODEL_UNAVAILABLE',
          `The embedding model "${modelId}" is not on this device: choose it once in Settings → Search to download it, then run the benchmark again.`,
          {
            model_id: modelId,
            reason: 'not_downloaded',
            ...(error instanceof AppError && { cause: error.code }),
          },
          { cause: error },
        );
      } finally {
        signal.removeEventListener('abort', onAbort);
      }
    },
    release() {
      if (used) engine?.stop();
      used = false;
    },
  };
}

function unavailable(modelId: string, reason: 'unknown_model' | 'runtime_unavailable'): AppError {
  return new AppError(
    'EMBEDDING_MODEL_UNAVAILABLE',
    reason === 'unknown_model'
      ? `There is no embedding model "${modelId}" to benchmark.`
      : `The embedding model "${modelId}" cannot run here; only the built-in hash-v1 can.`,
    { model_id: modelId, reason },
  );
}

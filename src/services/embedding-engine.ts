import {
  HostedEmbedder,
  TransformersEmbedderHost,
  type EmbedderHostApi,
  type EmbedderLoadOptions,
  type LoadedEmbeddingModel,
  type TransformersEmbedderConfig,
} from '../retrieval/transformers-embedder';

/**
 * Where transformers.js models run, as the embedding service sees it: the embed
 * worker in the app (src/workers/embed-client.ts), an in-thread host in tests.
 */
export interface EmbeddingEngine {
  /** Downloads (or reads from the cache) and loads the model; progress as it goes. */
  load(config: TransformersEmbedderConfig, options?: EmbedderLoadOptions): Promise<HostedEmbedder>;
  /**
   * An embedder for a model loaded in an earlier session, without loading it
   * now: the first embed loads it, and fails if the files give other vectors.
   */
  restore(config: TransformersEmbedderConfig, loaded: LoadedEmbeddingModel): HostedEmbedder;
  /**
   * Stops whatever the engine is doing, downloads included (transformers.js
   * cannot abort a download; ending the worker can). The next call starts afresh.
   */
  stop(): void;
}

/** An engine over a host in this thread (tests, scripts): `stop` unloads the model. */
export function inThreadEmbeddingEngine(
  host: EmbedderHostApi = new TransformersEmbedderHost(),
): EmbeddingEngine {
  return {
    load: (config, options) => HostedEmbedder.load(host, config, options),
    restore: (config, loaded) => new HostedEmbedder(host, config, loaded),
    stop: () => void host.unload().catch(() => undefined),
  };
}

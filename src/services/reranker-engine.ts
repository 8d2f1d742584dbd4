import type { EmbedderLoadOptions } from '../retrieval/transformers-embedder';
import {
  HostedReranker,
  TransformersRerankerHost,
  type LoadedRerankerModel,
  type RerankerHostApi,
  type TransformersRerankerConfig,
} from '../retrieval/transformers-reranker';

/**
 * Where cross-encoders run, as the reranker service sees it: the embed worker
 * in the app (src/workers/embed-client.ts), an in-thread host in tests.
 */
export interface RerankerEngine {
  /** Downloads (or reads from the cache) and loads the reranker; progress as it goes. */
  load(config: TransformersRerankerConfig, options?: EmbedderLoadOptions): Promise<HostedReranker>;
  /** A reranker loaded in an earlier session, without loading it now: the first score loads it. */
  restore(config: TransformersRerankerConfig, loaded: LoadedRerankerModel): HostedReranker;
  /** Stops whatever the engine is doing, a download included. The next call starts afresh. */
  stop(): void;
}

/** An engine over a host in this thread (tests, scripts): `stop` unloads the model. */
export function inThreadRerankerEngine(
  host: RerankerHostApi = new TransformersRerankerHost(),
): RerankerEngine {
  return {
    load: (config, options) => HostedReranker.load(host, config, options),
    restore: (config, loaded) => new HostedReranker(host, config, loaded),
    stop: () => void host.unloadReranker().catch(() => undefined),
  };
}

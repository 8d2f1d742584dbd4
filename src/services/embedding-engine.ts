import { HostedEmbedder, TransformersEmbedderHost, type EmbedderHostApi } from '../retrieval/embedder-host';
import type { LoadedEmbeddingModel, TransformersEmbedderConfig } from '../retrieval/transformers-embedder';
import type { HostedModelEngine } from './model-download';

/**
 * Where transformers.js embedding models run, as the embedding service sees
 * it: the embed worker in the app (src/workers/embed-client.ts), an in-thread
 * host in tests. A restored embedder fails on its first embed if the files give
 * other vectors.
 */
export type EmbeddingEngine = HostedModelEngine<
  TransformersEmbedderConfig,
  LoadedEmbeddingModel,
  HostedEmbedder
>;

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

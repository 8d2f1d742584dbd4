import {
  HostedReranker,
  TransformersRerankerHost,
  type LoadedRerankerModel,
  type RerankerHostApi,
} from '../retrieval/reranker-host';
import type { TransformersRerankerConfig } from '../retrieval/transformers-reranker';
import type { HostedModelEngine } from './model-download';

/**
 * Where cross-encoders run, as the reranker service sees it: the embed worker
 * in the app (src/workers/embed-client.ts), an in-thread host in tests.
 */
export type RerankerEngine = HostedModelEngine<
  TransformersRerankerConfig,
  LoadedRerankerModel,
  HostedReranker
>;

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

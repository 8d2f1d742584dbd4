import * as Comlink from 'comlink';
import './transfer-handlers';
import { AppError } from '../contracts/errors';
import { HostedEmbedder, type EmbedderHostApi } from '../retrieval/embedder-host';
import { HostedReranker, type LoadedRerankerModel, type RerankerHostApi } from '../retrieval/reranker-host';
import type {
  EmbedderLoadOptions,
  LoadedEmbeddingModel,
  TransformersEmbedderConfig,
} from '../retrieval/transformers-embedder';
import type { TransformersRerankerConfig } from '../retrieval/transformers-reranker';
import type { EmbeddingEngine } from '../services/embedding-engine';
import type { RerankerEngine } from '../services/reranker-engine';
import type { EmbedWorkerApi } from './embed-worker-api';

/**
 * The page (or core worker) side of the embed worker. `load` resolves to an
 * Embedder with the same interface as the in-thread TransformersEmbedder, so
 * callers and tests do not know which one runs.
 *
 * The worker starts on the first load. If it dies (the browser may kill
 * workers), calls in flight fail with EMBEDDING_MODEL_UNAVAILABLE and the next
 * call starts a fresh worker, which reloads the model the request names.
 */
export interface EmbedWorkerClient {
  load(config: TransformersEmbedderConfig, options?: EmbedderLoadOptions): Promise<HostedEmbedder>;
  /** An embedder for a model loaded before (another session); the worker loads it on the first embed. */
  restore(config: TransformersEmbedderConfig, loaded: LoadedEmbeddingModel): HostedEmbedder;
  /** Loads a cross-encoder in the same worker, beside the embedder. */
  loadReranker(config: TransformersRerankerConfig, options?: EmbedderLoadOptions): Promise<HostedReranker>;
  /** A reranker loaded before (another session); the worker loads it on the first score. */
  restoreReranker(config: TransformersRerankerConfig, loaded: LoadedRerankerModel): HostedReranker;
  /** Unloads the models and ends the worker. */
  terminate(): void;
}

export interface EmbedWorkerClientOptions {
  /** Creates the worker; tests pass a MessagePort-backed stand-in. */
  createWorker?: () => Worker;
}

export function createEmbedWorkerClient(options: EmbedWorkerClientOptions = {}): EmbedWorkerClient {
  const createWorker =
    options.createWorker ??
    (() => new Worker(new URL('./embed.worker.ts', import.meta.url), { type: 'module', name: 'embed' }));
  let running:
    | {
        worker: Worker;
        remote: Comlink.Remote<EmbedWorkerApi>;
        died: Promise<never>;
        stop: (error: AppError) => void;
      }
    | undefined;

  const start = (): NonNullable<typeof running> => {
    if (running) return running;
    const worker = createWorker();
    let fail: (error: unknown) => void = () => undefined;
    const died = new Promise<never>((_resolve, reject) => (fail = reject));
    died.catch(() => undefined);
    const stop = (error: AppError): void => {
      if (running?.worker === worker) running = undefined;
      worker.terminate();
      fail(error);
    };
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      stop(
        new AppError('EMBEDDING_MODEL_UNAVAILABLE', 'The embedding worker stopped; try again.', {
          reason: 'worker_failed',
        }),
      );
    });
    running = { worker, remote: Comlink.wrap<EmbedWorkerApi>(worker), died, stop };
    return running;
  };

  /** Every call goes to the current worker and fails if that worker dies first. */
  const call = <T>(work: (remote: Comlink.Remote<EmbedWorkerApi>) => Promise<T>): Promise<T> => {
    const { remote, died } = start();
    return Promise.race([work(remote), died]);
  };

  const host: EmbedderHostApi = {
    load: (config, onProgress) =>
      call((remote) => remote.load(config, onProgress ? Comlink.proxy(onProgress) : undefined)),
    embed: (config, texts, input) => call((remote) => remote.embed(config, texts, input)),
    unload: () => call((remote) => remote.unload()),
  };
  const rerankerHost: RerankerHostApi = {
    loadReranker: (config, onProgress) =>
      call((remote) => remote.loadReranker(config, onProgress ? Comlink.proxy(onProgress) : undefined)),
    rerank: (config, query, texts) => call((remote) => remote.rerank(config, query, texts)),
    unloadReranker: () => call((remote) => remote.unloadReranker()),
  };

  return {
    load: (config, loadOptions = {}) => HostedEmbedder.load(host, config, loadOptions),
    restore: (config, loaded) => new HostedEmbedder(host, config, loaded),
    loadReranker: (config, loadOptions = {}) => HostedReranker.load(rerankerHost, config, loadOptions),
    restoreReranker: (config, loaded) => new HostedReranker(rerankerHost, config, loaded),
    terminate() {
      const current = running;
      if (!current) return;
      current.remote[Comlink.releaseProxy]();
      current.stop(
        new AppError('EMBEDDING_MODEL_UNAVAILABLE', 'The embedding worker was stopped.', {
          reason: 'worker_stopped',
        }),
      );
    },
  };
}

/** The embed worker as the embedding service's engine: stopping ends the worker, and with it any download. */
export function embedWorkerEngine(client: EmbedWorkerClient = createEmbedWorkerClient()): EmbeddingEngine {
  return {
    load: (config, options) => client.load(config, options),
    restore: (config, loaded) => client.restore(config, loaded),
    stop: () => client.terminate(),
  };
}

/**
 * The embed worker as the reranker service's engine. Stopping (a cancelled
 * reranker download) ends the worker: a loaded embedder is reloaded from the
 * browser cache on its next call, but an embedding download running at that
 * moment fails too.
 */
export function embedWorkerRerankerEngine(client: EmbedWorkerClient): RerankerEngine {
  return {
    load: (config, options) => client.loadReranker(config, options),
    restore: (config, loaded) => client.restoreReranker(config, loaded),
    stop: () => client.terminate(),
  };
}

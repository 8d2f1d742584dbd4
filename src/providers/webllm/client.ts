import { releaseProxy, wrap } from 'comlink';
import { WebLlmAdapter, type WebLlmAdapterConfig, type WebLlmClient } from './adapter';
import { browserDeviceProbe } from '../../models/device-check';
import { WebLlmModelManager } from '../../models/model-manager';
import type { WebLlmWorkerHost } from './worker-host';

export interface WebLlmClientHandle {
  /** The worker's `WebLlmWorkerHost`, through Comlink. */
  client: WebLlmClient;
  /** An IR adapter for one model, on this worker. */
  createAdapter(model: string, options?: Omit<WebLlmAdapterConfig, 'client' | 'model'>): WebLlmAdapter;
  createModelManager(): WebLlmModelManager;
  /** Ends the worker (and frees the GPU); a new handle starts a fresh one. */
  terminate(): void;
}

/**
 * Starts `llm.worker.ts`, the only place web-llm is imported (dynamically, on
 * the first request), and returns the page's side of it. Nothing is loaded
 * until this is called, so the app shell never pays for web-llm.
 */
export function createWebLlmClient(options: { createWorker?: () => Worker } = {}): WebLlmClientHandle {
  const worker =
    options.createWorker?.() ??
    new Worker(new URL('../../workers/llm.worker.ts', import.meta.url), { type: 'module', name: 'llm' });
  const remote = wrap<WebLlmWorkerHost>(worker);
  const device = browserDeviceProbe();
  return {
    client: remote,
    createAdapter: (model, adapterOptions = {}) =>
      new WebLlmAdapter({ device, ...adapterOptions, client: remote, model }),
    createModelManager: () => new WebLlmModelManager({ client: remote, device }),
    terminate() {
      remote[releaseProxy]();
      worker.terminate();
    },
  };
}

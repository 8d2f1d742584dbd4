/// <reference lib="webworker" />
// The local-model worker: hosts web-llm's engine on WebGPU. web-llm (~12 MB)
// is imported here only, dynamically, on the first request that needs it, so
// starting this worker is cheap and the page never loads the library.
import * as Comlink from 'comlink';
import { createBrowserModelCache } from '../providers/webllm/browser-cache';
import { WebLlmWorkerHost } from '../providers/webllm/worker-host';

const host = new WebLlmWorkerHost({
  async load() {
    const webllm = await import('@mlc-ai/web-llm');
    // web-llm's MLCEngine runs in this worker; its own worker protocol is not
    // used (its errors cross as strings): the host is the protocol.
    const engine = new webllm.MLCEngine({ appConfig: webllm.prebuiltAppConfig, logLevel: 'WARN' });
    return { engine, cache: createBrowserModelCache(webllm, { caches: self.caches }) };
  },
});

/** What the page sees, typed from the implementation: `RemoteObject<LlmWorkerApi>`. */
export type LlmWorkerApi = WebLlmWorkerHost;

Comlink.expose(host);

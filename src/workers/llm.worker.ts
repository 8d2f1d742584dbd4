/// <reference lib="webworker" />
// The local-model worker: hosts web-llm's engine on WebGPU. web-llm (~12 MB)
// is imported here only, dynamically, on the first chat that needs it, so
// starting this worker is cheap and listing, downloading or deleting models
// never loads the library.
import * as Comlink from 'comlink';
import { createBrowserModelCache } from '../models/browser-cache';
import type { WebLlmAppConfig } from '../providers/webllm/engine-port';
import { findCatalogEntry } from '../models/model-catalog';
import { DEFAULT_MODEL_SOURCES, modelUrls, type ModelSources } from '../models/model-sources';
import { WebLlmWorkerHost } from '../providers/webllm/worker-host';

let sources: ModelSources = DEFAULT_MODEL_SOURCES;
const locate = (modelId: string) => {
  const entry = findCatalogEntry(modelId);
  return entry && modelUrls(entry, sources);
};

/** web-llm's prebuilt records with the model and library URLs under the chosen sources. */
function appConfigFor(prebuilt: WebLlmAppConfig): WebLlmAppConfig {
  return {
    ...prebuilt,
    model_list: prebuilt.model_list.map((record) => {
      const urls = locate(record.model_id);
      return urls ? { ...record, model: urls.model, model_lib: urls.modelLib } : record;
    }),
  };
}

let applyToEngine: (() => void) | undefined;

const host = new WebLlmWorkerHost({
  cache: createBrowserModelCache({ locate, caches: self.caches }),
  async load() {
    const webllm = await import('./webllm-library');
    // web-llm's MLCEngine runs in this worker; its own worker protocol is not
    // used (its errors cross as strings): the host is the protocol.
    const engine = new webllm.MLCEngine({
      appConfig: appConfigFor(webllm.prebuiltAppConfig),
      logLevel: 'WARN',
    });
    applyToEngine = () => engine.setAppConfig(appConfigFor(webllm.prebuiltAppConfig));
    return { engine };
  },
  setSources(next) {
    sources = next;
    applyToEngine?.();
  },
});

/** What the core worker sees, typed from the implementation. */
export type LlmWorkerApi = WebLlmWorkerHost;

Comlink.expose(host);

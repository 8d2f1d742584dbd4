/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import './transfer-handlers';
import type { EventEnvelope } from '../contracts';
import { openDatabase } from '../db';
import { browserDeviceProbe } from '../models';
import { createWebLlmClient } from '../providers/webllm';
import { createCoreApi } from '../services/core-api';
import { StoreChangeBroadcast } from '../services/store-change-broadcast';
import { AsrWorkerClient } from './asr-client';
import { createEmbedWorkerClient, embedWorkerEngine, embedWorkerRerankerEngine } from './embed-client';
import { servedOrtWasmPaths } from './ort-wasm';
import { connectPluginWorker, type PluginWorkerHandle } from '../plugins/worker-connector';

// One copy of onnxruntime's WASM, served by this app, for every transformers.js
// worker: the library would otherwise fetch it from a CDN, and offline would fail.
const ortWasmPaths = servedOrtWasmPaths(self.location.href);

// Embedding models and the reranker run in one nested worker started on first use.
const embedWorker = createEmbedWorkerClient();
// Other tabs of the app hear of this core's committed writes and read them again.
const storeChanges = new StoreChangeBroadcast();
const core = createCoreApi(openDatabase(), {
  storeChanges,
  embedding: {
    engine: embedWorkerEngine(embedWorker),
    source: { wasm_paths: ortWasmPaths },
  },
  rerankers: { engine: embedWorkerRerankerEngine(embedWorker), source: { wasm_paths: ortWasmPaths } },
  // Benchmarks comparing embedding models load them in a worker of their own,
  // started by the first such run and ended when it finishes.
  benchmarks: { embeddingEngine: embedWorkerEngine(createEmbedWorkerClient()) },
  // Whisper runs in a nested worker (asr.worker.ts), started on the first
  // transcription; a changed model source gets a fresh one.
  transcription: {
    engine: (environment) => new AsrWorkerClient({ environment }),
    // Speaker labels (the settings' diarization model) run in the same worker.
    diarizer: ({ engine, model }) => (engine as AsrWorkerClient).diarizer(model),
    wasmPaths: ortWasmPaths,
  },
  // Each enabled plugin's MCP server runs in its own nested worker, without app storage.
  plugins: {
    // stdio plugins run in the paired Node companion, reached over loopback.
    companionSocket: (url, protocols) => new WebSocket(url, protocols),
    worker: (code, permissions) =>
      connectPluginWorker(
        () =>
          new Worker(new URL('./plugin.worker.ts', import.meta.url), {
            type: 'module',
            name: 'plugin',
          }) as unknown as PluginWorkerHandle,
        code,
        permissions,
      ),
  },
  // web-llm runs in its own worker, started from here on first use (nested workers).
  localModels: () => {
    const handle = createWebLlmClient();
    return { client: handle.client, device: browserDeviceProbe(self.navigator as unknown as Navigator) };
  },
});
// Jobs a closed tab left running are settled before the UI asks about them.
const recovered = core
  .recover()
  .catch((error: unknown) => {
    console.error('job recovery failed', error);
    return { failed: 0, requeued: 0 };
  })
  .finally(() => {
    // Loads the search indexes in the background (or starts building them).
    void core.start().catch((error: unknown) => console.error('search index start failed', error));
  });

// Marking each service as a proxy makes Comlink's Remote type recurse into it,
// so the page sees `core.notes.create(...)` typed from the implementation.
const workerApi = {
  notes: Comlink.proxy(core.api.notes),
  links: Comlink.proxy(core.api.links),
  history: Comlink.proxy(core.api.history),
  drafts: Comlink.proxy(core.api.drafts),
  archive: Comlink.proxy(core.api.archive),
  jobs: Comlink.proxy(core.api.jobs),
  settings: Comlink.proxy(core.api.settings),
  storage: Comlink.proxy(core.api.storage),
  search: Comlink.proxy(core.api.search),
  embedding: Comlink.proxy(core.api.embedding),
  rerankers: Comlink.proxy(core.api.rerankers),
  providers: Comlink.proxy(core.api.providers),
  chat: Comlink.proxy(core.api.chat),
  agent: Comlink.proxy(core.api.agent),
  memory: Comlink.proxy(core.api.memory),
  noteImages: Comlink.proxy(core.api.noteImages),
  attachments: Comlink.proxy(core.api.attachments),
  transcriptions: Comlink.proxy(core.api.transcriptions),
  localModels: Comlink.proxy(core.api.localModels),
  plugins: Comlink.proxy(core.api.plugins),
  themes: Comlink.proxy(core.api.themes),
  exports: Comlink.proxy(core.api.exports),
  benchmarks: Comlink.proxy(core.api.benchmarks),
  events: Comlink.proxy({
    list: core.api.events.list.bind(core.api.events),
    /** Callbacks arrive as Comlink proxies; the returned handle is one too. */
    subscribe(resourceId: string, afterSequence: number, onEvent: (envelope: EventEnvelope) => void) {
      const subscription = core.api.events.subscribe(resourceId, afterSequence, (envelope) => {
        void Promise.resolve(onEvent(envelope)).catch(() => subscription.close());
      });
      // Free the page-side callback once nothing more will be delivered.
      const remoteCallback = onEvent as unknown as Partial<Comlink.Remote<() => void>>;
      void subscription.closed.then(() => remoteCallback[Comlink.releaseProxy]?.());
      return Comlink.proxy({ close: () => subscription.close() });
    },
  }),
  /** The name this core's change messages carry, so its page can tell them from other tabs'. */
  async changeSource(): Promise<string> {
    return storeChanges.source;
  },
  async ready(): Promise<{ failed: number; requeued: number }> {
    return recovered;
  },
};

export type CoreWorkerApi = typeof workerApi;

Comlink.expose(workerApi);

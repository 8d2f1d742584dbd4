/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import './transfer-handlers';
import type { AsrLoadProgress } from '../media/asr-engine';
import {
  createAsrWorkerApi,
  type AsrModelSpec,
  type AsrWorkerApiOptions,
} from '../media/transformers/asr-worker-api';

/**
 * The speech-recognition worker: Whisper through transformers.js (loaded on
 * the first request, not with the worker). The page talks to it through
 * `AsrWorkerClient` (./asr-client.ts), an `AsrEngine` like the in-thread
 * engine. AppErrors cross with their code (./transfer-handlers); a cancelled
 * request answers TRANSCRIPTION_CANCELLED.
 */
export function createAsrWorkerRemoteApi(options: AsrWorkerApiOptions = {}) {
  const api = createAsrWorkerApi(options);
  return {
    ...api,
    async load(spec: AsrModelSpec, requestId: string, onProgress?: (progress: AsrLoadProgress) => void) {
      try {
        await api.load(spec, requestId, onProgress);
      } finally {
        // The page-side callback arrived as a Comlink proxy: free it once loading is over.
        (onProgress as Partial<Comlink.Remote<() => void>> | undefined)?.[Comlink.releaseProxy]?.();
      }
    },
  };
}

export type AsrWorkerRemoteApi = ReturnType<typeof createAsrWorkerRemoteApi>;

// Exposed only when running as a worker: tests import this module and link the
// same object over a MessageChannel.
if (typeof WorkerGlobalScope !== 'undefined') Comlink.expose(createAsrWorkerRemoteApi());

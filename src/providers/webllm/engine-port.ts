// The part of web-llm's engine this provider uses, typed from web-llm's own
// declarations. Type-only: nothing here loads the ~12 MB library, which only
// `src/workers/llm.worker.ts` imports (dynamically). Only this folder sees these types.
import type {
  AppConfig,
  ChatCompletionChunk,
  ChatCompletionMessageParam,
  ChatCompletionRequestStreaming,
  ChatOptions,
  CompletionUsage,
  InitProgressReport,
  ModelRecord,
} from '@mlc-ai/web-llm';

export type WebLlmChunk = ChatCompletionChunk;
export type WebLlmChatRequest = ChatCompletionRequestStreaming;
export type WebLlmMessage = ChatCompletionMessageParam;
export type WebLlmUsage = CompletionUsage;
export type WebLlmProgressReport = InitProgressReport;
export type WebLlmAppConfig = AppConfig;
export type WebLlmModelRecord = ModelRecord;

/**
 * The narrow engine interface: a subset of web-llm's `MLCEngineInterface`
 * (which satisfies it, checked in `engine-port.test.ts`), so tests drive an
 * engine double that yields web-llm's own chunk and usage shapes.
 */
export interface WebLlmEnginePort {
  /** Loads a model, downloading what the browser cache lacks; progress goes to the init callback. */
  reload(modelId: string, chatOpts?: ChatOptions): Promise<void>;
  chat: {
    completions: {
      create(request: WebLlmChatRequest): Promise<AsyncIterable<WebLlmChunk>>;
    };
  };
  /** Stops the running generation; its stream then ends with `finish_reason: "abort"`. */
  interruptGenerate(): void;
  /** Releases the GPU; during `reload()` it also aborts the download (web-llm's reload controller). */
  unload(): Promise<void>;
  setInitProgressCallback(callback: (report: WebLlmProgressReport) => void): void;
}

/** Bytes of one model download so far; `totalBytes` is known once the tensor manifest is read. */
export interface ModelDownloadProgress {
  loadedBytes: number;
  totalBytes: number | null;
  /** The file being fetched. */
  file: string;
}

/** web-llm's browser cache (Cache API) for one model's weights, tokenizer, config and wasm. */
export interface WebLlmCachePort {
  /** Every file web-llm's `reload()` reads is cached. */
  has(modelId: string): Promise<boolean>;
  /** Bytes the model occupies in the cache, partial downloads included; undefined for an unknown model. */
  sizeBytes(modelId: string): Promise<number | undefined>;
  /** Removes every cached file of the model, complete or partial. */
  delete(modelId: string): Promise<void>;
  /** Fetches the model's files into the cache, skipping those already there; rejects with the signal's reason when aborted. */
  download(
    modelId: string,
    options: { signal: AbortSignal; onProgress: (progress: ModelDownloadProgress) => void },
  ): Promise<{ bytes: number }>;
}

/** What the worker builds once, on first use, from the dynamically imported library. */
export interface WebLlmRuntime {
  engine: WebLlmEnginePort;
}

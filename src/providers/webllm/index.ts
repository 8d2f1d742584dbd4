// In-browser models through web-llm. The page uses the adapter, the
// model manager and `createWebLlmClient()`; the worker side (`WebLlmWorkerHost`)
// is imported by `src/workers/llm.worker.ts` directly.
export { WebLlmAdapter, createWebLlmAdapter, type WebLlmAdapterConfig, type WebLlmClient } from './adapter';
export { createWebLlmClient, type WebLlmClientHandle } from './client';
export {
  browserDeviceProbe,
  checkDevice,
  checkWebGpu,
  memoizedProbe,
  type DeviceCheckReason,
  type DeviceCheckResult,
  type DeviceProbe,
} from './device-check';
export { deviceCheckError, toWebLlmAppError } from './map-error';
export {
  WEBLLM_CATALOG,
  WEBLLM_MODEL_VERSION,
  WEBLLM_PROVIDER_ID,
  findCatalogEntry,
  toModelInfo,
  type ToolCallingMode,
  type WebLlmCatalogEntry,
} from './model-catalog';
export {
  WebLlmModelManager,
  toByteProgress,
  toDownloadProgress,
  type CachedModelInfo,
  type DownloadOptions,
  type DownloadProgress,
} from './model-manager';
export { describeToolsForPrompt, parsePromptedToolCalls } from './prompted-tools';
export { DEFAULT_MODEL_SOURCES, modelUrls, normalizeHost, type ModelSources } from './model-sources';

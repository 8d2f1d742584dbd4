// Model management for in-browser models: the web-llm catalog (curated models
// over web-llm's prebuilt list), where model files come from, the browser cache,
// downloads and the device check. The chat adapter itself is
// src/providers/webllm/; the local-model worker hosts both.
export {
  browserDeviceProbe,
  checkDevice,
  checkWebGpu,
  memoizedProbe,
  type DeviceCheckReason,
  type DeviceCheckResult,
  type DeviceProbe,
} from './device-check';
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
export { DEFAULT_MODEL_SOURCES, modelUrls, normalizeHost, type ModelSources } from './model-sources';

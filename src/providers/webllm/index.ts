// In-browser models through web-llm: the provider adapter and
// `createWebLlmClient()`. Model management (catalog, cache, downloads, device
// check) is src/models/; the worker side (`WebLlmWorkerHost`) is imported
// by `src/workers/llm.worker.ts` directly.
export { WebLlmAdapter, createWebLlmAdapter, type WebLlmAdapterConfig, type WebLlmClient } from './adapter';
export { createWebLlmClient, type WebLlmClientHandle } from './client';
export { deviceCheckError, toWebLlmAppError } from './map-error';
export { describeToolsForPrompt, parsePromptedToolCalls } from './prompted-tools';

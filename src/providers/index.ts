// Provider adapters behind the Metona IR. Each folder
// keeps its wire types to itself; this is what the rest of the app may use.
export * from './anthropic';
export * from './mock';
export * from './model-events';
export * from './ollama';
export * from './openai-compatible';
export * from './presets';
export * from './router';
export {
  STREAM_INTERRUPTED,
  StreamAccumulator,
  isRetryableCode,
  parseRetryAfter,
  toAppError,
  toContractErrorCode,
  type ContractCodeContext,
  type FetchFunction,
  type Sleep,
} from './shared';
export { WebLlmAdapter, deviceCheckError, toWebLlmAppError, type WebLlmClient } from './webllm';

export {
  OLLAMA_DEFAULT_BASE_URL,
  OLLAMA_PROVIDER_ID,
  OllamaAdapter,
  createOllamaAdapter,
  type OllamaAdapterConfig,
} from './adapter';

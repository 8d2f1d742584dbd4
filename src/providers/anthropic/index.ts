export {
  ANTHROPIC_BASE_URL,
  ANTHROPIC_PROVIDER_ID,
  ANTHROPIC_VERSION,
  AnthropicAdapter,
  createAnthropicAdapter,
  type AnthropicAdapterConfig,
} from './adapter';
export { DEFAULT_MAX_TOKENS, THINKING_BUDGET } from './convert-request';

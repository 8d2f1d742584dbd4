import type { ProviderErrorDetails } from '../shared/errors';
import { ollamaErrorBodySchema } from './wire-schemas';

/** Ollama errors are `{"error": "<message>"}`; there is no code, so the message is all we have. */
export function readOllamaErrorBody(text: string): ProviderErrorDetails {
  try {
    const parsed = ollamaErrorBodySchema.safeParse(JSON.parse(text));
    if (!parsed.success) return {};
    const providerCode = ollamaProviderCode(parsed.data.error);
    return { message: parsed.data.error, ...(providerCode && { providerCode }) };
  } catch {
    return {};
  }
}

/** Ollama reports a missing model by message, sometimes with a 400/500 status. */
export function ollamaProviderCode(message: string): string | undefined {
  return /model ['"]?[^'"]*['"]? not found|pull(ing)? (it|the model) first/i.test(message)
    ? 'model_not_found'
    : undefined;
}

import type { ProviderErrorDetails } from '../shared/errors';
import { anthropicErrorBodySchema } from './wire-schemas';

/** `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`. */
export function readAnthropicErrorBody(text: string): ProviderErrorDetails {
  try {
    const parsed = anthropicErrorBodySchema.safeParse(JSON.parse(text));
    return parsed.success ? { message: parsed.data.error.message, providerCode: parsed.data.error.type } : {};
  } catch {
    return {};
  }
}

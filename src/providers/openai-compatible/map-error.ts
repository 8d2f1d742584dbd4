import type { ProviderErrorDetails } from '../shared/errors';
import { openAIErrorBodySchema, type OpenAIErrorBody } from './wire-schemas';

/** `{error:{message,type,code}}`: the code is the more specific of the two (`insufficient_quota`). */
export function openAIErrorDetails(body: OpenAIErrorBody): ProviderErrorDetails {
  const { message, type, code } = body.error;
  const providerCode = code != null ? String(code) : (type ?? undefined);
  return {
    ...(message && { message }),
    ...(providerCode && { providerCode }),
  };
}

/** Reads an HTTP error body of this protocol; unknown shapes give nothing. */
export function readOpenAIErrorBody(text: string): ProviderErrorDetails {
  try {
    const parsed = openAIErrorBodySchema.safeParse(JSON.parse(text));
    return parsed.success ? openAIErrorDetails(parsed.data) : {};
  } catch {
    return {};
  }
}

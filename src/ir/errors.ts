import { z } from 'zod';
import { durationMsSchema } from './common';

export const MetonaErrorCode = {
  // network
  NETWORK_TIMEOUT: 'network_timeout',
  NETWORK_ERROR: 'network_error',
  // auth
  AUTH_INVALID: 'auth_invalid',
  AUTH_EXPIRED: 'auth_expired',
  // rate limits
  RATE_LIMITED: 'rate_limited',
  QUOTA_EXCEEDED: 'quota_exceeded',
  // model
  MODEL_OVERLOADED: 'model_overloaded',
  MODEL_NOT_FOUND: 'model_not_found',
  CONTEXT_LENGTH_EXCEEDED: 'context_length_exceeded',
  OUTPUT_LENGTH_EXCEEDED: 'output_length_exceeded',
  // content
  CONTENT_FILTERED: 'content_filtered',
  // parsing
  PARSE_ERROR: 'parse_error',
  INVALID_RESPONSE: 'invalid_response',
  // agent
  MAX_ITERATIONS: 'max_iterations',
  USER_ABORTED: 'user_aborted',
  TIMEOUT: 'timeout',
  UNKNOWN: 'unknown',
} as const;
export type MetonaErrorCode = (typeof MetonaErrorCode)[keyof typeof MetonaErrorCode];
export const metonaErrorCodeSchema = z.enum(MetonaErrorCode);

export const metonaErrorSchema = z.object({
  code: metonaErrorCodeSchema,
  message: z.string(),
  provider: z.string().optional(),
  providerCode: z.string().optional(),
  retryable: z.boolean(),
  retryAfterMs: durationMsSchema.optional(),
});
export type MetonaError = z.infer<typeof metonaErrorSchema>;

export function isMetonaError(value: unknown): value is MetonaError {
  return metonaErrorSchema.safeParse(value).success;
}

/**
 * The class errors leave adapters as. Structured clone and JSONL drop the
 * prototype, so boundaries carry `toJSON()` and rebuild with `from()`.
 */
export class MetonaProviderError extends Error implements MetonaError {
  override readonly name = 'MetonaProviderError';
  readonly code: MetonaErrorCode;
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
  readonly provider?: string;
  readonly providerCode?: string;

  constructor(error: MetonaError, options?: { cause?: unknown }) {
    super(error.message, options);
    this.code = error.code;
    this.retryable = error.retryable;
    this.retryAfterMs = error.retryAfterMs;
    this.provider = error.provider;
    this.providerCode = error.providerCode;
  }

  static from(error: MetonaError): MetonaProviderError {
    return new MetonaProviderError(error);
  }

  /** Absent optionals stay absent, so a JSON round trip compares equal. */
  toJSON(): MetonaError {
    const { code, message, retryable, retryAfterMs, provider, providerCode } = this;
    return {
      code,
      message,
      retryable,
      ...(provider !== undefined && { provider }),
      ...(providerCode !== undefined && { providerCode }),
      ...(retryAfterMs !== undefined && { retryAfterMs }),
    };
  }
}

import { z } from 'zod';
import { idSchema } from './common';
import type { MetonaRequest } from './request';
import type { MetonaResponse } from './response';
import type { MetonaStreamEvent } from './stream';

export const metonaPricingSchema = z.object({
  inputPerMillion: z.number().nonnegative(),
  outputPerMillion: z.number().nonnegative(),
  currency: z.string().min(1),
});
export type MetonaPricing = z.infer<typeof metonaPricingSchema>;

export const metonaModelInfoSchema = z.object({
  id: idSchema,
  providerId: idSchema,
  displayName: z.string(),
  contextWindow: z.number().int().positive(),
  maxOutput: z.number().int().positive(),
  supportsStreaming: z.boolean(),
  supportsThinking: z.boolean(),
  supportsImages: z.boolean(),
  supportsToolCalling: z.boolean(),
  supportsStructuredOutput: z.boolean(),
  pricing: metonaPricingSchema.optional(),
});
export type MetonaModelInfo = z.infer<typeof metonaModelInfoSchema>;

/**
 * Project addition to the standard: the standard's adapter cannot be cancelled,
 * but a closed tab or a Stop button must abort the upstream fetch, not only stop
 * listening. Adapters forward `signal` to fetch and reject with code 'user_aborted'.
 * No schema: an AbortSignal never crosses a worker boundary as data.
 */
export interface MetonaCallOptions {
  signal?: AbortSignal;
  /**
   * Project addition: a provider that must prepare before it can answer (a
   * local model loading into the GPU, 10–60 s) reports how far it is. Not a
   * stream event: the standard's event set is closed, and nothing here is
   * part of the answer. Only called before the first stream event.
   */
  onLoadProgress?: (progress: MetonaLoadProgress) => void;
}

/** How far a provider is in loading its model: `progress` 0..1, `text` in the engine's words. */
export interface MetonaLoadProgress {
  phase: 'loading';
  progress: number;
  text: string;
}

/** Every provider implements this; errors leave it as `MetonaProviderError`. */
export interface IMetonaProviderAdapter {
  readonly providerId: string;
  readonly supportedModels: string[];
  getContextWindow(model: string): number;
  healthCheck(): Promise<boolean>;
  send(request: MetonaRequest, options?: MetonaCallOptions): Promise<MetonaResponse>;
  /** Resolves with the full response once the stream has ended. */
  sendStream(
    request: MetonaRequest,
    onEvent: (event: MetonaStreamEvent) => void,
    options?: MetonaCallOptions,
  ): Promise<MetonaResponse>;
  listModels(): Promise<MetonaModelInfo[]>;
}

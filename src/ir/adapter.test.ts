import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import { example1Response } from './__fixtures__/standard-examples';
import {
  metonaModelInfoSchema,
  type IMetonaProviderAdapter,
  type MetonaCallOptions,
  type MetonaModelInfo,
  type MetonaRequest,
  type MetonaStreamEvent,
} from './index';

const issuePaths = (schema: z.ZodType, value: unknown) =>
  schema.safeParse(value).error?.issues.map((issue) => issue.path.join('.'));

const model: MetonaModelInfo = {
  id: 'deepseek-v4-pro',
  providerId: 'deepseek',
  displayName: 'DeepSeek V4 Pro',
  contextWindow: 128_000,
  maxOutput: 8192,
  supportsStreaming: true,
  supportsThinking: true,
  supportsImages: false,
  supportsToolCalling: true,
  supportsStructuredOutput: true,
  pricing: { inputPerMillion: 2, outputPerMillion: 8, currency: 'CNY' },
};

describe('MetonaModelInfo and MetonaPricing', () => {
  it('accepts a model with pricing', () => {
    expect(metonaModelInfoSchema.parse(model)).toEqual(model);
  });

  it('rejects an empty context window, a missing flag and a negative price', () => {
    expect(issuePaths(metonaModelInfoSchema, { ...model, contextWindow: 0 })).toEqual(['contextWindow']);
    const { supportsImages: _dropped, ...noImagesFlag } = model;
    expect(issuePaths(metonaModelInfoSchema, noImagesFlag)).toEqual(['supportsImages']);
    const negative = { ...model, pricing: { ...model.pricing, inputPerMillion: -1 } };
    expect(issuePaths(metonaModelInfoSchema, negative)).toEqual(['pricing.inputPerMillion']);
  });
});

describe('IMetonaProviderAdapter', () => {
  it('takes optional call options last and still admits adapters written to the bare standard', () => {
    expectTypeOf<Parameters<IMetonaProviderAdapter['send']>>().toEqualTypeOf<
      [request: MetonaRequest, options?: MetonaCallOptions]
    >();
    expectTypeOf<Parameters<IMetonaProviderAdapter['sendStream']>[2]>().toEqualTypeOf<
      MetonaCallOptions | undefined
    >();
    const bare: IMetonaProviderAdapter = {
      providerId: 'fake',
      supportedModels: [model.id],
      getContextWindow: () => model.contextWindow,
      healthCheck: async () => true,
      send: async () => example1Response,
      sendStream: async (_request, _onEvent: (event: MetonaStreamEvent) => void) => example1Response,
      listModels: async () => [model],
    };
    expect(bare.getContextWindow(model.id)).toBe(128_000);
  });
});

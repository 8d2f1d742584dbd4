import { z } from 'zod';
import { countSchema, durationMsSchema, idSchema, timestampSchema } from './common';
import { metonaErrorSchema } from './errors';
import { metonaToolCallSchema } from './tool';

export const MetonaFinishReason = {
  STOP: 'stop',
  LENGTH: 'length',
  TOOL_CALLS: 'tool_calls',
  CONTENT_FILTER: 'content_filter',
  ERROR: 'error',
} as const;
export type MetonaFinishReason = (typeof MetonaFinishReason)[keyof typeof MetonaFinishReason];
export const metonaFinishReasonSchema = z.enum(MetonaFinishReason);

// Totals are not cross-checked: providers disagree on whether reasoning and
// cache tokens are already inside inputTokens/outputTokens.
export const metonaTokenUsageSchema = z.object({
  inputTokens: countSchema,
  outputTokens: countSchema,
  totalTokens: countSchema,
  reasoningTokens: countSchema.optional(),
  cacheHitTokens: countSchema.optional(),
  cacheMissTokens: countSchema.optional(),
});
export type MetonaTokenUsage = z.infer<typeof metonaTokenUsageSchema>;

/** Named for reuse; the standard declares it inline as `MetonaResponseMeta.perfStats`. */
export const metonaPerfStatsSchema = z.object({
  loadDurationMs: durationMsSchema.optional(),
  promptEvalDurationMs: durationMsSchema.optional(),
  evalDurationMs: durationMsSchema.optional(),
  tokensPerSecond: z.number().nonnegative().optional(),
});
export type MetonaPerfStats = z.infer<typeof metonaPerfStatsSchema>;

export const metonaResponseMetaSchema = z.object({
  requestId: idSchema,
  provider: idSchema,
  model: idSchema,
  latencyMs: durationMsSchema,
  timestamp: timestampSchema,
  perfStats: metonaPerfStatsSchema.optional(),
});
export type MetonaResponseMeta = z.infer<typeof metonaResponseMetaSchema>;

export const metonaResponseSchema = z.object({
  meta: metonaResponseMetaSchema,
  content: z.string(),
  reasoningContent: z.string().optional(),
  structuredOutput: z.unknown().optional(),
  toolCalls: z.array(metonaToolCallSchema).optional(),
  usage: metonaTokenUsageSchema,
  finishReason: metonaFinishReasonSchema,
  error: metonaErrorSchema.optional(),
});
export type MetonaResponse = z.infer<typeof metonaResponseSchema>;

/** Provider-neutral thinking; merged into `MetonaResponse.reasoningContent` at the end. */
export const metonaThinkingSchema = z.object({
  content: z.string(),
  status: z.enum(['thinking', 'complete']),
  durationMs: durationMsSchema,
  tokensUsed: countSchema,
});
export type MetonaThinking = z.infer<typeof metonaThinkingSchema>;

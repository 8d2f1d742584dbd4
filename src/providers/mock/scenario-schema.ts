import { z } from 'zod';
import { metonaErrorCodeSchema, metonaFinishReasonSchema } from '../../ir';

// The mock's "wire format": a scenario file, played step by step.

const count = z.number().int().nonnegative();

export const mockStepSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('reasoning'), chunks: z.array(z.string()) }),
  z.object({ type: z.literal('text'), chunks: z.array(z.string()) }),
  /** Streamed like OpenAI: the first delta names the tool, the rest carry argument text. */
  z.object({
    type: z.literal('tool_call'),
    id: z.string().min(1).optional(),
    name: z.string().min(1),
    argument_chunks: z.array(z.string()),
  }),
  z.object({
    type: z.literal('usage'),
    input_tokens: count,
    output_tokens: count,
    reasoning_tokens: count.optional(),
    cache_hit_tokens: count.optional(),
    cache_miss_tokens: count.optional(),
  }),
  z.object({ type: z.literal('delay'), ms: count }),
  z.object({
    type: z.literal('error'),
    code: metonaErrorCodeSchema,
    message: z.string(),
    retryable: z.boolean().optional(),
    retry_after_ms: count.optional(),
  }),
  /** The stream stops here without its end: an interrupted stream. */
  z.object({ type: z.literal('cut') }),
  z.object({ type: z.literal('finish'), reason: metonaFinishReasonSchema.optional() }),
]);
export type MockStep = z.infer<typeof mockStepSchema>;

export const mockScenarioSchema = z.object({
  id: z.string().min(1),
  description: z.string().optional(),
  model: z.string().min(1).default('mock-1'),
  /** Waited before every chunk: lets demos and cancellation tests stream slowly. */
  chunk_delay_ms: count.default(0),
  steps: z.array(mockStepSchema),
});
export type MockScenario = z.infer<typeof mockScenarioSchema>;
export type MockScenarioInput = z.input<typeof mockScenarioSchema>;

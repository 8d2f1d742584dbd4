import { z } from 'zod';

// Anthropic Messages API wire format (SSE). Only this folder sees these types.

// ---- request --------------------------------------------------------------

export const anthropicImageSourceSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('base64'), media_type: z.string(), data: z.string() }),
  z.object({ type: z.literal('url'), url: z.string() }),
]);

export const anthropicRequestBlockSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('image'), source: anthropicImageSourceSchema }),
  z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() }),
  z.object({
    type: z.literal('tool_use'),
    id: z.string(),
    name: z.string(),
    input: z.record(z.string(), z.unknown()),
  }),
  z.object({
    type: z.literal('tool_result'),
    tool_use_id: z.string(),
    content: z.string(),
    is_error: z.boolean().optional(),
  }),
]);
export type AnthropicRequestBlock = z.infer<typeof anthropicRequestBlockSchema>;

export const anthropicMessageSchema = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.array(anthropicRequestBlockSchema),
});
export type AnthropicMessage = z.infer<typeof anthropicMessageSchema>;

export const anthropicRequestSchema = z.object({
  model: z.string(),
  max_tokens: z.number().int().positive(),
  system: z.string().optional(),
  messages: z.array(anthropicMessageSchema),
  stream: z.literal(true),
  temperature: z.number().optional(),
  top_p: z.number().optional(),
  stop_sequences: z.array(z.string()).optional(),
  tools: z
    .array(
      z.object({
        name: z.string(),
        description: z.string(),
        input_schema: z.record(z.string(), z.unknown()),
      }),
    )
    .optional(),
  tool_choice: z
    .object({ type: z.enum(['auto', 'none', 'any']), disable_parallel_tool_use: z.boolean().optional() })
    .optional(),
  thinking: z.object({ type: z.literal('enabled'), budget_tokens: z.number().int().min(1024) }).optional(),
  /** Structured outputs (generally available form; the beta's `output_format` needs a header). */
  output_config: z
    .object({
      format: z.object({ type: z.literal('json_schema'), schema: z.record(z.string(), z.unknown()) }),
    })
    .optional(),
});
export type AnthropicRequest = z.infer<typeof anthropicRequestSchema>;

// ---- stream ---------------------------------------------------------------

const count = z.number().int().nonnegative();

export const anthropicUsageSchema = z.object({
  input_tokens: count.nullish(),
  output_tokens: count.nullish(),
  cache_creation_input_tokens: count.nullish(),
  cache_read_input_tokens: count.nullish(),
});
export type AnthropicUsage = z.infer<typeof anthropicUsageSchema>;

/** Blocks and deltas of types this adapter does not know (server tools, citations) are kept as `other` and skipped. */
const other = z
  .object({ type: z.string() })
  .transform((value) => ({ type: 'other' as const, wireType: value.type }));

export const anthropicContentBlockSchema = z.union([
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('text'), text: z.string() }),
    z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string().optional() }),
    z.object({ type: z.literal('redacted_thinking'), data: z.string() }),
    z.object({
      type: z.literal('tool_use'),
      id: z.string(),
      name: z.string(),
      input: z.record(z.string(), z.unknown()).nullish(),
    }),
  ]),
  other,
]);

export const anthropicDeltaSchema = z.union([
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('text_delta'), text: z.string() }),
    z.object({ type: z.literal('thinking_delta'), thinking: z.string() }),
    z.object({ type: z.literal('signature_delta'), signature: z.string() }),
    z.object({ type: z.literal('input_json_delta'), partial_json: z.string() }),
  ]),
  other,
]);

export const anthropicErrorSchema = z.object({ type: z.string(), message: z.string() });

export const anthropicEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('message_start'),
    message: z.object({
      id: z.string().nullish(),
      model: z.string().nullish(),
      usage: anthropicUsageSchema.nullish(),
    }),
  }),
  z.object({
    type: z.literal('content_block_start'),
    index: count,
    content_block: anthropicContentBlockSchema,
  }),
  z.object({ type: z.literal('content_block_delta'), index: count, delta: anthropicDeltaSchema }),
  z.object({ type: z.literal('content_block_stop'), index: count }),
  z.object({
    type: z.literal('message_delta'),
    delta: z.object({ stop_reason: z.string().nullish(), stop_sequence: z.string().nullish() }),
    usage: anthropicUsageSchema.nullish(),
  }),
  z.object({ type: z.literal('message_stop') }),
  z.object({ type: z.literal('ping') }),
  z.object({ type: z.literal('error'), error: anthropicErrorSchema }),
]);
export type AnthropicEvent = z.infer<typeof anthropicEventSchema>;

const KNOWN_EVENTS = new Set<string>(anthropicEventSchema.options.map((option) => option.shape.type.value));

/** What one SSE `data:` payload can be. New event types are ignored, as Anthropic asks clients to do. */
export type AnthropicStreamItem =
  { kind: 'event'; event: AnthropicEvent } | { kind: 'ignored' } | { kind: 'invalid'; message: string };

export function parseAnthropicStreamData(data: string): AnthropicStreamItem {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch (error) {
    return { kind: 'invalid', message: `Stream event is not JSON: ${(error as Error).message}` };
  }
  const type = (value as { type?: unknown } | null)?.type;
  if (typeof type !== 'string') return { kind: 'invalid', message: 'Stream event without a type.' };
  if (type === 'content_block_delta' && isPlainDelta(value as Record<string, unknown>)) {
    return { kind: 'event', event: value as AnthropicEvent };
  }
  if (!KNOWN_EVENTS.has(type)) return { kind: 'ignored' };
  const parsed = anthropicEventSchema.safeParse(value);
  if (parsed.success) return { kind: 'event', event: parsed.data };
  return {
    kind: 'invalid',
    message: `Unexpected ${type} event: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
  };
}

/**
 * The event nearly every payload is (a text, thinking or tool-argument delta),
 * checked with typeof only. Whatever passes would pass `anthropicEventSchema`
 * with the same meaning; anything else goes through the schema and gets its
 * verdict and message. Unknown keys stay where the schema would strip them:
 * nothing reads them.
 */
function isPlainDelta(event: Record<string, unknown>): boolean {
  const index = event.index;
  if (typeof index !== 'number' || !Number.isSafeInteger(index) || index < 0) return false;
  const delta = event.delta as Record<string, unknown> | null | undefined;
  if (typeof delta !== 'object' || delta === null || Array.isArray(delta)) return false;
  switch (delta.type) {
    case 'text_delta':
      return typeof delta.text === 'string';
    case 'thinking_delta':
      return typeof delta.thinking === 'string';
    case 'input_json_delta':
      return typeof delta.partial_json === 'string';
    default:
      return false;
  }
}

export const anthropicErrorBodySchema = z.object({ type: z.literal('error'), error: anthropicErrorSchema });

export const anthropicModelListSchema = z.object({
  data: z.array(z.object({ id: z.string(), display_name: z.string().nullish() })),
});

import { z } from 'zod';

// OpenAI Chat Completions wire format, as DeepSeek, Agnes (vLLM) and OpenAI
// speak it. Only this folder sees these types.

// ---- request --------------------------------------------------------------

export const openAIContentPartSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({
    type: z.literal('image_url'),
    image_url: z.object({ url: z.string(), detail: z.enum(['low', 'high', 'auto']).optional() }),
  }),
]);
export type OpenAIContentPart = z.infer<typeof openAIContentPartSchema>;

export const openAIToolCallSchema = z.object({
  id: z.string(),
  type: z.literal('function'),
  function: z.object({ name: z.string(), arguments: z.string() }),
});
export type OpenAIToolCall = z.infer<typeof openAIToolCallSchema>;

export const openAIMessageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string() }),
  z.object({ role: z.literal('user'), content: z.union([z.string(), z.array(openAIContentPartSchema)]) }),
  z.object({
    role: z.literal('assistant'),
    content: z.string().nullable(),
    tool_calls: z.array(openAIToolCallSchema).optional(),
    /** DeepSeek: thinking of a tool-call round, sent back within the same turn. */
    reasoning_content: z.string().optional(),
  }),
  z.object({ role: z.literal('tool'), tool_call_id: z.string(), content: z.string() }),
]);
export type OpenAIMessage = z.infer<typeof openAIMessageSchema>;

export const openAIToolSchema = z.object({
  type: z.literal('function'),
  function: z.object({
    name: z.string(),
    description: z.string(),
    parameters: z.record(z.string(), z.unknown()),
  }),
});
export type OpenAITool = z.infer<typeof openAIToolSchema>;

export const openAIChatRequestSchema = z.object({
  model: z.string(),
  messages: z.array(openAIMessageSchema),
  stream: z.literal(true),
  stream_options: z.object({ include_usage: z.boolean() }),
  max_tokens: z.number().int().positive().optional(),
  max_completion_tokens: z.number().int().positive().optional(),
  temperature: z.number().optional(),
  top_p: z.number().optional(),
  stop: z.array(z.string()).optional(),
  tools: z.array(openAIToolSchema).optional(),
  tool_choice: z.enum(['auto', 'none', 'required']).optional(),
  parallel_tool_calls: z.boolean().optional(),
  /** DeepSeek thinking switch. */
  thinking: z.object({ type: z.enum(['enabled', 'disabled']) }).optional(),
  /** DeepSeek (`high`/`max`) and OpenAI (`low`/`medium`/`high`). */
  reasoning_effort: z.enum(['low', 'medium', 'high', 'max']).optional(),
  /** Agnes / vLLM chat-template switch. */
  chat_template_kwargs: z.object({ enable_thinking: z.boolean() }).optional(),
  response_format: z
    .union([
      z.object({ type: z.literal('json_object') }),
      z.object({
        type: z.literal('json_schema'),
        json_schema: z.object({
          name: z.string(),
          description: z.string().optional(),
          schema: z.record(z.string(), z.unknown()),
          strict: z.boolean().optional(),
        }),
      }),
    ])
    .optional(),
});
export type OpenAIChatRequest = z.infer<typeof openAIChatRequestSchema>;

// ---- stream ---------------------------------------------------------------

export const openAIUsageSchema = z.object({
  prompt_tokens: z.number().int().nonnegative(),
  completion_tokens: z.number().int().nonnegative(),
  total_tokens: z.number().int().nonnegative().nullish(),
  /** DeepSeek context caching. */
  prompt_cache_hit_tokens: z.number().int().nonnegative().nullish(),
  prompt_cache_miss_tokens: z.number().int().nonnegative().nullish(),
  /** OpenAI prompt caching. */
  prompt_tokens_details: z.object({ cached_tokens: z.number().int().nonnegative().nullish() }).nullish(),
  completion_tokens_details: z
    .object({ reasoning_tokens: z.number().int().nonnegative().nullish() })
    .nullish(),
});
export type OpenAIUsage = z.infer<typeof openAIUsageSchema>;

export const openAIToolCallDeltaSchema = z.object({
  index: z.number().int().nonnegative().nullish(),
  id: z.string().nullish(),
  type: z.string().nullish(),
  function: z.object({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
});

export const openAIChunkSchema = z.object({
  id: z.string().nullish(),
  model: z.string().nullish(),
  choices: z
    .array(
      z.object({
        index: z.number().int().nonnegative().nullish(),
        delta: z
          .object({
            role: z.string().nullish(),
            content: z.string().nullish(),
            /** DeepSeek, Agnes. */
            reasoning_content: z.string().nullish(),
            /** Newer vLLM names it `reasoning`. */
            reasoning: z.string().nullish(),
            tool_calls: z.array(openAIToolCallDeltaSchema).nullish(),
          })
          .nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
  usage: openAIUsageSchema.nullish(),
});
export type OpenAIChunk = z.infer<typeof openAIChunkSchema>;

export const openAIErrorBodySchema = z.object({
  error: z.object({
    message: z.string().nullish(),
    type: z.string().nullish(),
    code: z.union([z.string(), z.number()]).nullish(),
  }),
});
export type OpenAIErrorBody = z.infer<typeof openAIErrorBodySchema>;

/** What one SSE `data:` payload of this protocol can be. */
export type OpenAIStreamItem =
  | { kind: 'done' }
  | { kind: 'chunk'; chunk: OpenAIChunk }
  | { kind: 'error'; body: OpenAIErrorBody }
  | { kind: 'invalid'; message: string };

export function parseOpenAIStreamData(data: string): OpenAIStreamItem {
  // A chunk starts with '{'; only other payloads pay for the trim.
  if (data.charCodeAt(0) !== 123 /* '{' */ && data.trim() === '[DONE]') return { kind: 'done' };
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch (error) {
    return { kind: 'invalid', message: `Stream chunk is not JSON: ${(error as Error).message}` };
  }
  if (isPlainDeltaChunk(value)) return { kind: 'chunk', chunk: value };
  const error = openAIErrorBodySchema.safeParse(value);
  if (error.success) return { kind: 'error', body: error.data };
  const chunk = openAIChunkSchema.safeParse(value);
  if (chunk.success) return { kind: 'chunk', chunk: chunk.data };
  return {
    kind: 'invalid',
    message: `Unexpected stream chunk: ${chunk.error.issues[0]?.message ?? 'invalid'}`,
  };
}

type Loose = Record<string, unknown>;

const isObject = (value: unknown): value is Loose =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isNullishString = (value: unknown) => value == null || typeof value === 'string';
const isNullishIndex = (value: unknown) =>
  value == null || (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0);

/**
 * The shape nearly every chunk has (an envelope and one delta, no usage, no
 * `error`), checked with typeof only. Whatever passes would pass
 * `openAIChunkSchema` and fail `openAIErrorBodySchema`, so the answer is the
 * same as the schemas'; anything else (usage, an error body, a malformed
 * chunk) goes through the schemas and gets their verdict and message. Unknown
 * keys stay on the object where the schema would strip them: nothing reads them.
 */
function isPlainDeltaChunk(value: unknown): value is OpenAIChunk {
  if (!isObject(value) || value.error !== undefined || value.usage != null) return false;
  if (!isNullishString(value.id) || !isNullishString(value.model)) return false;
  const choices = value.choices;
  if (choices == null) return true;
  if (!Array.isArray(choices)) return false;
  for (const choice of choices as unknown[]) {
    if (!isObject(choice) || !isNullishIndex(choice.index) || !isNullishString(choice.finish_reason))
      return false;
    const delta = choice.delta;
    if (delta == null) continue;
    if (!isObject(delta)) return false;
    if (
      !isNullishString(delta.role) ||
      !isNullishString(delta.content) ||
      !isNullishString(delta.reasoning_content) ||
      !isNullishString(delta.reasoning)
    ) {
      return false;
    }
    const toolCalls = delta.tool_calls;
    if (toolCalls == null) continue;
    if (!Array.isArray(toolCalls)) return false;
    for (const call of toolCalls as unknown[]) {
      if (
        !isObject(call) ||
        !isNullishIndex(call.index) ||
        !isNullishString(call.id) ||
        !isNullishString(call.type)
      )
        return false;
      const fn = call.function;
      if (fn == null) continue;
      if (!isObject(fn) || !isNullishString(fn.name) || !isNullishString(fn.arguments)) return false;
    }
  }
  return true;
}

export const openAIModelListSchema = z.object({
  data: z.array(
    z.object({
      id: z.string(),
      owned_by: z.string().nullish(),
      // OpenRouter, vLLM, LM Studio and others report the model's window.
      context_length: z.number().int().positive().nullish(),
      max_model_len: z.number().int().positive().nullish(),
    }),
  ),
});

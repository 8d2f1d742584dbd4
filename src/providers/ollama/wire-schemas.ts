import { z } from 'zod';

// Ollama's native /api/chat (NDJSON) wire format. Only this folder sees these types.

// ---- request --------------------------------------------------------------

export const ollamaToolCallSchema = z.object({
  id: z.string().optional(),
  function: z.object({ name: z.string(), arguments: z.record(z.string(), z.unknown()) }),
});

export const ollamaMessageSchema = z.object({
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.string(),
  /** Base64 without the data-URI prefix. */
  images: z.array(z.string()).optional(),
  tool_calls: z.array(ollamaToolCallSchema).optional(),
  /** On tool results: which tool answered. */
  tool_name: z.string().optional(),
});
export type OllamaMessage = z.infer<typeof ollamaMessageSchema>;

export const ollamaThinkSchema = z.union([z.boolean(), z.enum(['low', 'medium', 'high'])]);
export type OllamaThink = z.infer<typeof ollamaThinkSchema>;

export const ollamaChatRequestSchema = z.object({
  model: z.string(),
  messages: z.array(ollamaMessageSchema),
  stream: z.literal(true),
  think: ollamaThinkSchema.optional(),
  /** "json", or a JSON schema the answer is constrained to. */
  format: z.union([z.literal('json'), z.record(z.string(), z.unknown())]).optional(),
  tools: z
    .array(
      z.object({
        type: z.literal('function'),
        function: z.object({
          name: z.string(),
          description: z.string(),
          parameters: z.record(z.string(), z.unknown()),
        }),
      }),
    )
    .optional(),
  options: z
    .object({
      temperature: z.number().optional(),
      top_p: z.number().optional(),
      num_predict: z.number().int().optional(),
      num_ctx: z.number().int().optional(),
      stop: z.array(z.string()).optional(),
    })
    .optional(),
});
export type OllamaChatRequest = z.infer<typeof ollamaChatRequestSchema>;

// ---- stream ---------------------------------------------------------------

const nanoseconds = z.number().nonnegative();

export const ollamaChunkSchema = z.object({
  model: z.string().nullish(),
  created_at: z.string().nullish(),
  message: z
    .object({
      role: z.string().nullish(),
      content: z.string().nullish(),
      thinking: z.string().nullish(),
      tool_calls: z
        .array(
          z.object({
            id: z.string().nullish(),
            function: z.object({
              index: z.number().int().nullish(),
              name: z.string(),
              // An object per the API; some model templates yield a JSON string.
              arguments: z.union([z.record(z.string(), z.unknown()), z.string()]).nullish(),
            }),
          }),
        )
        .nullish(),
    })
    .nullish(),
  done: z.boolean(),
  done_reason: z.string().nullish(),
  total_duration: nanoseconds.nullish(),
  load_duration: nanoseconds.nullish(),
  prompt_eval_count: z.number().int().nonnegative().nullish(),
  prompt_eval_duration: nanoseconds.nullish(),
  eval_count: z.number().int().nonnegative().nullish(),
  eval_duration: nanoseconds.nullish(),
});
export type OllamaChunk = z.infer<typeof ollamaChunkSchema>;

export const ollamaErrorBodySchema = z.object({ error: z.string() });

/** What one NDJSON line of /api/chat can be. */
export type OllamaStreamItem =
  | { kind: 'chunk'; chunk: OllamaChunk }
  | { kind: 'error'; message: string }
  | { kind: 'invalid'; message: string };

export function parseOllamaLine(value: unknown): OllamaStreamItem {
  if (isPlainContentLine(value)) return { kind: 'chunk', chunk: value };
  const error = ollamaErrorBodySchema.safeParse(value);
  if (error.success) return { kind: 'error', message: error.data.error };
  const chunk = ollamaChunkSchema.safeParse(value);
  if (chunk.success) return { kind: 'chunk', chunk: chunk.data };
  return {
    kind: 'invalid',
    message: `Unexpected stream line: ${chunk.error.issues[0]?.message ?? 'invalid'}`,
  };
}

export const ollamaTagsSchema = z.object({
  models: z.array(
    z.object({
      name: z.string(),
      model: z.string().nullish(),
      size: z.number().nullish(),
      details: z.object({ family: z.string().nullish(), parameter_size: z.string().nullish() }).nullish(),
    }),
  ),
});

const isNullishString = (value: unknown) => value == null || typeof value === 'string';

/**
 * The line nearly every line is (`done: false`, a message with text or
 * thinking, no tool calls, no error), checked with typeof only. Whatever
 * passes would pass `ollamaChunkSchema` and fail `ollamaErrorBodySchema`; the
 * rest (the done line, tool calls, errors, malformed lines) goes through the
 * schemas and gets their verdict and message. Unknown keys stay where the
 * schema would strip them: nothing reads them.
 */
function isPlainContentLine(value: unknown): value is OllamaChunk {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const line = value as Record<string, unknown>;
  if (line.done !== false || line.error !== undefined) return false;
  if (!isNullishString(line.model) || !isNullishString(line.created_at) || !isNullishString(line.done_reason))
    return false;
  if (
    line.total_duration != null ||
    line.load_duration != null ||
    line.prompt_eval_count != null ||
    line.prompt_eval_duration != null ||
    line.eval_count != null ||
    line.eval_duration != null
  ) {
    return false;
  }
  const message = line.message as Record<string, unknown> | null | undefined;
  if (message == null) return true;
  if (typeof message !== 'object' || Array.isArray(message)) return false;
  return (
    isNullishString(message.role) &&
    isNullishString(message.content) &&
    isNullishString(message.thinking) &&
    message.tool_calls == null
  );
}

import { z } from 'zod';
import { countSchema, idSchema, iterationSchema, timestampSchema } from './common';
import { metonaToolCallSchema, metonaToolDefSchema, metonaToolResultSchema } from './tool';

// MetonaSystemPrompt lives here, not in context.ts as the standard's file list
// has it: context.ts needs MetonaMessage, and the reverse import would be a cycle.

export const metonaRequestMetaSchema = z.object({
  sessionId: idSchema,
  iteration: iterationSchema,
  requestId: idSchema,
  timestamp: timestampSchema,
  agentVersion: z.string(),
});
export type MetonaRequestMeta = z.infer<typeof metonaRequestMetaSchema>;

export const metonaSystemPromptSchema = z.object({
  roleDefinition: z.string(),
  outputConstraints: z.string(),
  safetyGuidelines: z.string(),
  dynamicReminders: z.string().optional(),
});
export type MetonaSystemPrompt = z.infer<typeof metonaSystemPromptSchema>;

export const metonaThinkingEffortSchema = z.enum(['low', 'medium', 'high', 'max']);
export type MetonaThinkingEffort = z.infer<typeof metonaThinkingEffortSchema>;

/**
 * Project addition: the standard answers structured output in
 * `MetonaResponse.structuredOutput` and names the wire's `response_format:
 * json_object`, but gives the request no field; this is that field, in the
 * standard's camelCase. `json_object` asks for any JSON object, `json_schema`
 * for one matching `schema`. Adapters send it in their provider's own form or
 * refuse the request (contract MODEL_CAPABILITY_MISMATCH); none ignores it.
 */
export const metonaResponseFormatSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('json_object') }),
  z.object({
    type: z.literal('json_schema'),
    // OpenAI's limit for `json_schema.name`; the other providers take any name.
    name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'name is 1-64 letters, digits, _ or -'),
    description: z.string().optional(),
    schema: z.record(z.string(), z.unknown()),
    strict: z.boolean().optional(),
  }),
]);
export type MetonaResponseFormat = z.infer<typeof metonaResponseFormatSchema>;

export const metonaGenerationParamsSchema = z.object({
  maxTokens: z.number().int().positive().optional(),
  temperature: z.number().nonnegative().optional(),
  topP: z.number().min(0).max(1).optional(),
  stream: z.boolean().optional(),
  stopSequences: z.array(z.string()).optional(),
  thinkingEnabled: z.boolean().optional(),
  thinkingEffort: metonaThinkingEffortSchema.optional(),
  responseFormat: metonaResponseFormatSchema.optional(),
});
export type MetonaGenerationParams = z.infer<typeof metonaGenerationParamsSchema>;

export const metonaConstraintsSchema = z.object({
  allowedTools: z.array(z.string()).optional(),
  maxToolCalls: countSchema.optional(),
  timeoutMs: z.number().int().positive().optional(),
});
export type MetonaConstraints = z.infer<typeof metonaConstraintsSchema>;

export const metonaImageContentSchema = z.object({
  // The standard allows a public URL or a base64 data URI; only emptiness is rejected
  // so same-origin blob: URLs stay usable inside the browser.
  url: z.string().min(1),
  detail: z.enum(['low', 'high', 'auto']).optional(),
});
export type MetonaImageContent = z.infer<typeof metonaImageContentSchema>;

export const metonaMessageRoleSchema = z.enum(['system', 'user', 'assistant', 'tool']);
export type MetonaMessageRole = z.infer<typeof metonaMessageRoleSchema>;

/**
 * One flat shape for every role, as the standard has it; the role-specific
 * fields are checked here so an adapter can map them without guessing.
 */
export const metonaMessageSchema = z
  .object({
    role: metonaMessageRoleSchema,
    content: z.string(),
    reasoningContent: z.string().optional(),
    toolCalls: z.array(metonaToolCallSchema).optional(),
    toolResult: metonaToolResultSchema.optional(),
    timestamp: timestampSchema,
    iteration: iterationSchema.optional(),
    images: z.array(metonaImageContentSchema).optional(),
  })
  .superRefine((message, ctx) => {
    const misplaced = (field: 'reasoningContent' | 'toolCalls' | 'toolResult', owner: string) =>
      ctx.addIssue({
        code: 'custom',
        path: [field],
        message: `${field} is only allowed on ${owner} messages, not on role '${message.role}'`,
      });
    if (message.role !== 'assistant') {
      if (message.reasoningContent !== undefined) misplaced('reasoningContent', 'assistant');
      if (message.toolCalls !== undefined) misplaced('toolCalls', 'assistant');
    }
    if (message.role !== 'tool' && message.toolResult !== undefined) misplaced('toolResult', 'tool');
    // Adapters need toolResult.toolCallId to answer the call (OpenAI's tool_call_id).
    if (message.role === 'tool' && message.toolResult === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['toolResult'],
        message: "role 'tool' messages need a toolResult",
      });
    }
  });
export type MetonaMessage = z.infer<typeof metonaMessageSchema>;

export const metonaRequestSchema = z.object({
  meta: metonaRequestMetaSchema,
  systemPrompt: metonaSystemPromptSchema,
  messages: z.array(metonaMessageSchema),
  tools: z.array(metonaToolDefSchema).optional(),
  params: metonaGenerationParamsSchema,
  constraints: metonaConstraintsSchema.optional(),
});
export type MetonaRequest = z.infer<typeof metonaRequestSchema>;

import { z } from 'zod';

export const MAX_AGENT_PROMPT_CHARS = 20_000;

const toolNameSchema = z.string().regex(/^[a-z][a-z0-9_-]*(\.[a-z][a-z0-9_-]*)+$/, 'a namespaced tool name');

export const startAgentRunSchema = z
  .object({
    prompt: z.string().trim().min(1, 'prompt is required').max(MAX_AGENT_PROMPT_CHARS),
    provider: z.string().min(1).optional(),
    model: z.string().min(1).optional(),
    max_steps: z.number().int().min(1).max(50).optional(),
    /** Tokens the whole run may use; the loop stops it mid-run with `token_budget` when spent. */
    token_budget: z.number().int().min(1).max(10_000_000).optional(),
    allowed_tools: z.array(toolNameSchema).max(100).optional(),
  })
  .strict();

export const agentRunIdSchema = z.string().min(1, 'run_id is required').max(200);

export const resolvePermissionSchema = z
  .object({
    run_id: agentRunIdSchema,
    request_id: z.string().min(1, 'request_id is required').max(200),
    decision: z.enum(['allow_once', 'always_allow', 'deny']),
  })
  .strict();

export const agentTraceQuerySchema = z.object({
  run_id: agentRunIdSchema,
  // Checked by traceSnapshot: a bad cursor is TRACE_CURSOR_INVALID, not a validation error.
  after_sequence: z.number().default(0),
  limit: z.number().default(200),
});

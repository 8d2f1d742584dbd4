import { z } from 'zod';
import { durationMsSchema, idSchema, iterationSchema, timestampSchema } from './common';

export const MetonaToolCategory = {
  FILESYSTEM: 'filesystem',
  SEARCH: 'search',
  CALCULATION: 'calculation',
  CODE_EXECUTION: 'code_execution',
  NETWORK: 'network',
  DATABASE: 'database',
  MCP: 'mcp',
  CUSTOM: 'custom',
} as const;
export type MetonaToolCategory = (typeof MetonaToolCategory)[keyof typeof MetonaToolCategory];
export const metonaToolCategorySchema = z.enum(MetonaToolCategory);

export const MetonaRiskLevel = {
  SAFE: 'safe',
  LOW: 'low',
  MEDIUM: 'medium',
  HIGH: 'high',
  CRITICAL: 'critical',
} as const;
export type MetonaRiskLevel = (typeof MetonaRiskLevel)[keyof typeof MetonaRiskLevel];
export const metonaRiskLevelSchema = z.enum(MetonaRiskLevel);

// Written out because a recursive schema cannot infer its own type.
export interface MetonaParamField {
  type: 'string' | 'number' | 'boolean' | 'object' | 'array';
  description: string;
  enum?: string[];
  items?: MetonaParamField;
}

export const metonaParamFieldSchema: z.ZodType<MetonaParamField> = z.object({
  type: z.enum(['string', 'number', 'boolean', 'object', 'array']),
  description: z.string(),
  enum: z.array(z.string()).optional(),
  get items() {
    return metonaParamFieldSchema.optional();
  },
});

export const metonaToolParamsSchema = z
  .object({
    type: z.literal('object'),
    properties: z.record(z.string(), metonaParamFieldSchema),
    required: z.array(z.string()).optional(),
  })
  .superRefine((params, ctx) => {
    // A required name without a property is unsatisfiable for the model.
    params.required?.forEach((name, index) => {
      if (!Object.hasOwn(params.properties, name)) {
        ctx.addIssue({
          code: 'custom',
          path: ['required', index],
          message: `required parameter "${name}" is not declared in properties`,
        });
      }
    });
  });
export type MetonaToolParams = z.infer<typeof metonaToolParamsSchema>;

export const metonaToolDefSchema = z.object({
  name: idSchema,
  description: z.string(),
  parameters: metonaToolParamsSchema,
  category: metonaToolCategorySchema,
  riskLevel: metonaRiskLevelSchema,
  requiresPermission: z.boolean(),
  timeoutMs: z.number().int().positive(),
});
export type MetonaToolDef = z.infer<typeof metonaToolDefSchema>;

/**
 * Arguments the model sent that are not a JSON object (a project extension of
 * the standard's MetonaToolCall). The wire still completes the call, with
 * `args: {}`, so the agent can hand the model a tool error and let it retry
 * instead of failing the whole answer.
 */
export const metonaToolArgumentsErrorSchema = z.object({
  /** What the model sent, cut short by the wire when long. */
  text: z.string(),
  /** The parser's reason, e.g. `Unexpected token ',' … in JSON at position 18`. */
  reason: z.string(),
});
export type MetonaToolArgumentsError = z.infer<typeof metonaToolArgumentsErrorSchema>;

export const metonaToolCallSchema = z.object({
  id: idSchema,
  name: idSchema,
  args: z.record(z.string(), z.unknown()),
  iteration: iterationSchema,
  timestamp: timestampSchema,
  /**
   * Set by a wire whose tool-call arguments were not a JSON object (`args` is
   * then `{}`). Declared here, not carried as an undeclared extra, because the
   * call passes through the stream driver, the router, the accumulator and IR
   * schema parses (which drop unknown keys) before the agent reports it.
   */
  argumentsError: metonaToolArgumentsErrorSchema.optional(),
});
export type MetonaToolCall = z.infer<typeof metonaToolCallSchema>;

export const metonaToolResultSchema = z.object({
  toolCallId: idSchema,
  toolName: idSchema,
  // Not forced present: a void tool's `undefined` result vanishes in JSON.
  result: z.unknown(),
  summary: z.string().optional(),
  success: z.boolean(),
  error: z.string().optional(),
  durationMs: durationMsSchema,
  timestamp: timestampSchema,
});
export type MetonaToolResult = z.infer<typeof metonaToolResultSchema>;

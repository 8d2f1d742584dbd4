import { z } from 'zod';
import { countSchema, idSchema, iterationSchema } from './common';
import { metonaMemoryItemSchema } from './memory';
import { metonaMessageSchema, metonaSystemPromptSchema } from './request';
import { metonaToolDefSchema } from './tool';

/** Above this usageRatio the Agent Loop must compress before the next call. */
export const METONA_COMPRESSION_TRIGGER_RATIO = 0.8;
/** Compression is done only once usageRatio is below this. */
export const METONA_COMPRESSION_TARGET_RATIO = 0.5;
/** Most recent rounds kept verbatim when compressing (configurable; this is the default). */
export const METONA_DEFAULT_KEPT_ROUNDS = 5;

export function needsCompression(usageRatio: number): boolean {
  return usageRatio > METONA_COMPRESSION_TRIGGER_RATIO;
}

export const metonaContextSchema = z.object({
  id: idSchema,
  sessionId: idSchema,
  systemPrompt: metonaSystemPromptSchema,
  history: z.array(metonaMessageSchema),
  relevantMemories: z.array(metonaMemoryItemSchema),
  currentTask: z.object({
    userInput: z.string(),
    iteration: iterationSchema,
    taskGoal: z.string().optional(),
  }),
  availableTools: z.array(metonaToolDefSchema),
  estimatedTokens: countSchema,
  // Not capped at 1: an overfull context is exactly what must be reported.
  usageRatio: z.number().nonnegative(),
  // Stored, not derived, as the standard has it; `needsCompression()` computes it.
  needsCompression: z.boolean(),
});
export type MetonaContext = z.infer<typeof metonaContextSchema>;

import { z } from 'zod';
import { idSchema, timestampSchema } from './common';

export const metonaMemoryTypeSchema = z.enum(['episodic', 'semantic', 'working']);
export type MetonaMemoryType = z.infer<typeof metonaMemoryTypeSchema>;

export const metonaMemorySourceSchema = z.enum(['user_input', 'tool_result', 'agent_thought', 'imported']);
export type MetonaMemorySource = z.infer<typeof metonaMemorySourceSchema>;

export const metonaMemoryItemSchema = z.object({
  id: idSchema,
  type: metonaMemoryTypeSchema,
  content: z.string(),
  summary: z.string().optional(),
  source: metonaMemorySourceSchema,
  importance: z.number().min(0).max(1),
  // Unbounded: the scale depends on the retriever (cosine, BM25, fused ranks).
  relevanceScore: z.number().optional(),
  sessionId: idSchema.optional(),
  createdAt: timestampSchema,
  expiresAt: timestampSchema.optional(),
});
export type MetonaMemoryItem = z.infer<typeof metonaMemoryItemSchema>;

import { z } from 'zod';
import { MAX_MODEL_ID_LENGTH } from './embedding-schemas';

/** A catalog model id, or null to turn reranking off. */
export const selectRerankerSchema = z
  .object({ model_id: z.string().trim().min(1).max(MAX_MODEL_ID_LENGTH).nullable() })
  .strict();
export type SelectRerankerInput = z.input<typeof selectRerankerSchema>;

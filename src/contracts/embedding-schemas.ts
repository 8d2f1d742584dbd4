import { z } from 'zod';

export const MAX_MODEL_ID_LENGTH = 200;
export const MAX_MODEL_HOST_LENGTH = 2000;

export const selectEmbeddingModelSchema = z
  .object({ model_id: z.string().trim().min(1).max(MAX_MODEL_ID_LENGTH) })
  .strict();
export type SelectEmbeddingModelInput = z.input<typeof selectEmbeddingModelSchema>;

/** An http(s) base URL; null or '' goes back to the default host. */
export const modelHostSchema = z
  .string()
  .trim()
  .max(MAX_MODEL_HOST_LENGTH)
  .transform((value) => (value === '' ? null : value))
  .refine((value) => value === null || isHttpUrl(value), {
    message: 'The model host must be an http:// or https:// address.',
  })
  .nullable();

export const updateEmbeddingSourceSchema = z.object({ remote_host: modelHostSchema }).strict();
export type UpdateEmbeddingSourceInput = z.input<typeof updateEmbeddingSourceSchema>;

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === ''
    );
  } catch {
    return false;
  }
}

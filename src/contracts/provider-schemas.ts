import { z } from 'zod';
import { PROVIDER_PRESET_IDS } from './provider-config';
import { THINKING_EFFORTS } from './chat';

export const providerIdSchema = z
  .string()
  .min(1, 'provider_id is required')
  .max(64)
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'use lowercase letters, digits and dashes');

const modelNameSchema = z.string().trim().min(1).max(200);
const apiKeySchema = z
  .string()
  .min(1)
  .max(8 * 1024);
/** http(s) only: the worker fetches it. */
const baseUrlSchema = z
  .string()
  .trim()
  .max(2000)
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'enter an http:// or https:// URL');

export const providerFallbackSchema = z.object({ provider_id: providerIdSchema, model: modelNameSchema });

export const createProviderSchema = z
  .object({
    provider_id: providerIdSchema.optional(),
    preset: z.enum(PROVIDER_PRESET_IDS),
    display_name: z.string().trim().min(1).max(100).optional(),
    base_url: baseUrlSchema.optional(),
    default_model: modelNameSchema.optional(),
    enabled: z.boolean().default(true),
    api_key: apiKeySchema.optional(),
    fallback: providerFallbackSchema.nullable().default(null),
  })
  .strict();

export const patchProviderSchema = z
  .object({
    display_name: z.string().trim().min(1).max(100).optional(),
    base_url: baseUrlSchema.optional(),
    default_model: modelNameSchema.optional(),
    enabled: z.boolean().optional(),
    api_key: apiKeySchema.nullable().optional(),
    fallback: providerFallbackSchema.nullable().optional(),
  })
  .strict();

export const testProviderSchema = z
  .object({
    provider_id: providerIdSchema.optional(),
    preset: z.enum(PROVIDER_PRESET_IDS).optional(),
    base_url: baseUrlSchema.optional(),
    model: modelNameSchema.optional(),
    api_key: apiKeySchema.optional(),
  })
  .strict()
  .refine((input) => input.provider_id !== undefined || input.preset !== undefined, {
    message: 'give provider_id or preset',
    path: ['preset'],
  });

export const conversationIdSchema = z.string().min(1, 'conversation_id is required').max(100);
export const turnIdSchema = z.string().min(1, 'turn_id is required').max(100);

export const chatSendSchema = z
  .object({
    conversation_id: conversationIdSchema.optional(),
    content: z.string().trim().min(1, 'the message is empty').max(100_000),
    provider_id: providerIdSchema.optional(),
    model: modelNameSchema.optional(),
    thinking: z.boolean().optional(),
    thinking_effort: z.enum(THINKING_EFFORTS).optional(),
    use_notes: z.boolean().optional(),
  })
  .strict();

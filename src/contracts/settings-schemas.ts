import { z } from 'zod';
import { LOCALES, THEMES, type SettingsDto } from './settings';

export const secretNameSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[a-z0-9][a-z0-9._-]*$/i, 'use letters, digits, dot, dash or underscore');

export const putSecretSchema = z.object({
  name: secretNameSchema,
  value: z
    .string()
    .min(1)
    .max(64 * 1024),
});

/** User preferences; unknown keys are rejected so typos do not silently persist. */
export const settingsSchema = z
  .object({
    locale: z.enum(LOCALES).nullable(),
    theme: z.enum(THEMES),
    autosave_delay_ms: z.number().int().min(200).max(10_000),
  })
  .strict() satisfies z.ZodType<SettingsDto>;

export const updateSettingsSchema = settingsSchema.partial().strict();

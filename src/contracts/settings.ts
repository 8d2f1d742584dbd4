import { z } from 'zod';

/** Secrets never come back: a read says only whether one is configured (§1.6). */
export interface SecretStatusDto {
  name: string;
  configured: boolean;
  updated_at: string | null;
}

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

export const LOCALES = ['zh-CN', 'en'] as const;
export type Locale = (typeof LOCALES)[number];

/** User preferences; unknown keys are rejected so typos do not silently persist. */
export const settingsSchema = z
  .object({
    locale: z.enum(LOCALES).nullable(),
    theme: z.enum(['system', 'light', 'dark']),
    autosave_delay_ms: z.number().int().min(200).max(10_000),
  })
  .strict();
export type SettingsDto = z.infer<typeof settingsSchema>;
export const DEFAULT_SETTINGS: SettingsDto = { locale: null, theme: 'system', autosave_delay_ms: 600 };
export const updateSettingsSchema = settingsSchema.partial().strict();
export type UpdateSettingsInput = z.input<typeof updateSettingsSchema>;

export interface StorageEstimateDto {
  usage: number | null;
  quota: number | null;
  persisted: boolean | null;
}

/** Secrets never come back: a read says only whether one is configured (§1.6). */
export interface SecretStatusDto {
  name: string;
  configured: boolean;
  updated_at: string | null;
}

export const LOCALES = ['zh-CN', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
export const THEMES = ['system', 'light', 'dark'] as const;

export interface SettingsDto {
  locale: Locale | null;
  theme: (typeof THEMES)[number];
  autosave_delay_ms: number;
}
export type UpdateSettingsInput = Partial<SettingsDto>;

export const DEFAULT_SETTINGS: SettingsDto = { locale: null, theme: 'system', autosave_delay_ms: 600 };

export interface StorageEstimateDto {
  usage: number | null;
  quota: number | null;
  persisted: boolean | null;
}

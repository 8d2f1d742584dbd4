import type { ProviderPresetId } from '../../contracts/provider-config';
import type { MessageKey } from '../i18n';

/**
 * The presets whose names are words rather than brands: the core names them in English, so
 * the form shows them in the UI's language. Brands (DeepSeek, OpenAI, …) stay as they are.
 */
const PRESET_NAME_KEYS: Partial<Record<ProviderPresetId, MessageKey>> = {
  mock: 'settingsForm.preset.mock',
  custom: 'settingsForm.preset.custom',
};

/**
 * The message key to show instead of `displayName`, or null to show it as is. A provider keeps
 * the name its preset gave it until the user renames it; only that untouched name is translated.
 */
export function presetNameKey(
  preset: ProviderPresetId,
  displayName: string,
  presetDisplayName: string | undefined,
): MessageKey | null {
  const key = PRESET_NAME_KEYS[preset];
  if (!key) return null;
  return presetDisplayName !== undefined && displayName === presetDisplayName ? key : null;
}

/** A base URL the browser can call: http(s) with a host. Empty means "the preset's own". */
export function isCallableBaseUrl(value: string): boolean {
  const trimmed = value.trim();
  if (trimmed === '') return true;
  try {
    const url = new URL(trimmed);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

export interface ProviderTestAdvice {
  /** What went wrong, in terms of the form's fields. */
  headline: MessageKey;
  /** What to do next. */
  next: MessageKey;
}

/**
 * A test only lists the provider's models, so a failure says something about the address or
 * the key, never about the default model: a 404 there is a wrong base URL (the core reports it
 * as MODEL_NOT_FOUND), a 401/403 a wrong key. Unreachable addresses have their own checklist
 * (provider-error.ts); other errors get no advice.
 */
export function providerTestAdvice(code: string): ProviderTestAdvice | null {
  switch (code) {
    case 'MODEL_NOT_FOUND':
      return { headline: 'settingsForm.test.notFound', next: 'settingsForm.test.notFoundNext' };
    case 'PROVIDER_AUTH_FAILED':
      return { headline: 'settingsForm.test.authFailed', next: 'settingsForm.test.authFailedNext' };
    default:
      return null;
  }
}

import { i18n, type MessageKey, type MessageParams } from '../i18n';
import { refusalText as pluginRefusalText, type RefusalTranslator } from '../extensions/plugin-refusal';

/** A theme package's refusal as the core sent it: the contract code and its structured details. */
export interface ThemeRefusalInput {
  code: string;
  /** The core's English wording: kept for the console, never shown. */
  message: string;
  details: Readonly<Record<string, unknown>>;
}

/**
 * Reasons a manifest shares with plugin packages (src/packages/manifest.ts):
 * worded by the plugin refusal's messages, which name the file and, for a
 * syntax error, the line and column, so a broken theme.yaml reads like a broken
 * plugin.yaml. Field problems (`manifest_invalid`) keep the theme's own
 * sentence and its list of fields to fix.
 */
const SHARED_REASONS = new Set([
  'manifest_missing',
  'manifest_yaml',
  'manifest_too_large',
  'manifest_encoding',
  'manifest_not_mapping',
]);

/** Reasons only a theme has: a file theme.yaml names that the package lacks, or is no image. */
const THEME_REASON_KEYS = {
  file_missing: 'themes.refusal.file_missing',
  preview_not_image: 'themes.refusal.preview_not_image',
} as const satisfies Record<string, MessageKey>;

function themeCodeText(code: string, message: string, translator: RefusalTranslator): string {
  const key = `themes.error.${code}` as MessageKey;
  const text = translator.t(key);
  return text === key ? translator.errorText(code, message) : text;
}

/**
 * What is wrong with the package, in the reader's language: where and why when
 * the details say it (the line and column of a syntax error, the field and the
 * file it names), else what the code says. Null-free: an unknown reason falls
 * back to the code's sentence.
 */
export function themeRefusalText(refusal: ThemeRefusalInput, translator: RefusalTranslator = i18n): string {
  const { details } = refusal;
  const reason = typeof details.reason === 'string' ? details.reason : null;
  if (reason !== null && SHARED_REASONS.has(reason)) return pluginRefusalText(refusal, translator);
  if (reason !== null && Object.hasOwn(THEME_REASON_KEYS, reason)) {
    const { field, path } = details;
    if (typeof field === 'string' && typeof path === 'string') {
      const params: MessageParams = { file: 'theme.yaml', field, path };
      return translator.t(THEME_REASON_KEYS[reason as keyof typeof THEME_REASON_KEYS], params);
    }
  }
  if (reason === 'reserved_theme_id' && typeof details.theme_id === 'string') {
    // The field list alone ("theme_id") left the author guessing what is wrong with "light".
    return translator.t('themes.reservedId', { file: 'theme.yaml', id: details.theme_id });
  }
  return themeCodeText(refusal.code, refusal.message, translator);
}

/** Whether the text already names the field to fix, so the separate field list would repeat it. */
export function refusalNamesFields(refusal: ThemeRefusalInput): boolean {
  const reason = refusal.details.reason;
  return (
    typeof reason === 'string' && (Object.hasOwn(THEME_REASON_KEYS, reason) || reason === 'reserved_theme_id')
  );
}

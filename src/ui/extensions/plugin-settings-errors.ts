import type { PluginSettingField } from '../../contracts/plugin-types';
import { i18n, type MessageKey, type MessageParams } from '../i18n';
import type { PluginRefusal } from './plugin-refusal';

/** What the page knows of the plugin the error is about; both may be missing (palette before Settings). */
export interface SettingsErrorContext {
  pluginName: string | null;
  fields: readonly PluginSettingField[];
}

type Translator = { t(key: MessageKey, params?: MessageParams): string };

/**
 * A settings or secret refusal in the reader's language, naming the fields by
 * the labels the form shows. The core's message is English and names keys,
 * which a Chinese screen must not show; null for any other error.
 */
export function settingsErrorText(
  refusal: PluginRefusal,
  context: SettingsErrorContext,
  translator: Translator = i18n,
): string | null {
  const { details } = refusal;
  const label = (key: string) => context.fields.find((field) => field.key === key)?.label || key;
  const plugin = context.pluginName || (typeof details.plugin_id === 'string' ? details.plugin_id : '');
  const keys = Array.isArray(details.keys)
    ? details.keys.filter((key): key is string => typeof key === 'string')
    : [];
  const fields = keys.map(label).join(translator.t('plugins.listSeparator'));
  const key = typeof details.key === 'string' ? details.key : null;
  switch (refusal.code) {
    case 'PLUGIN_SETTINGS_REQUIRED':
      return fields && plugin ? translator.t('plugins.settings.required', { plugin, fields }) : null;
    case 'PLUGIN_SECRET_REQUIRED':
      return fields && plugin ? translator.t('plugins.secret.required', { plugin, fields }) : null;
    case 'PLUGIN_SECRET_VALUE_INVALID':
      return key ? translator.t('plugins.secret.valueInvalid', { field: label(key) }) : null;
    case 'PLUGIN_SETTINGS_FIELD_INVALID': {
      if (!key) return null;
      const field = context.fields.find((candidate) => candidate.key === key);
      if (field?.type === 'number' && field.minimum !== undefined && field.maximum !== undefined) {
        return translator.t('plugins.settings.fieldRange', {
          field: label(key),
          minimum: field.minimum,
          maximum: field.maximum,
        });
      }
      return translator.t('plugins.settings.fieldInvalid', { field: label(key) });
    }
    default:
      return null;
  }
}

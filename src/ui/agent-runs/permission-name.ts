import { permissionLabel } from '../extensions/plugin-refusal';
import { i18n, type MessageKey, type MessageParams } from '../i18n';

/** Default permission of a plugin tool that declares none (`src/plugins/plugin-tools.ts`). */
const PLUGIN_TOOLS_SUFFIX = '.tools';

/**
 * A permission as the approval prompt names it, in the reader's language. The
 * built-in ids share their words with the plugin settings; a plugin's default
 * `<plugin_id>.tools` names the plugin; any other id has no words but itself.
 */
export function permissionName(
  permission: string,
  translator: { t(key: MessageKey, params?: MessageParams): string } = i18n,
): string {
  const label = permissionLabel(permission, translator);
  if (label !== permission) return label;
  if (permission.endsWith(PLUGIN_TOOLS_SUFFIX) && permission.length > PLUGIN_TOOLS_SUFFIX.length) {
    const plugin = permission.slice(0, -PLUGIN_TOOLS_SUFFIX.length);
    return translator.t('agent.permission.name.pluginTools', { plugin });
  }
  return permission;
}

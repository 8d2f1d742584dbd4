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
  names: Pick<PluginToolNames, 'plugins'> = { plugins: [] },
): string {
  const label = permissionLabel(permission, translator);
  if (label !== permission) return label;
  if (permission.endsWith(PLUGIN_TOOLS_SUFFIX) && permission.length > PLUGIN_TOOLS_SUFFIX.length) {
    const pluginId = permission.slice(0, -PLUGIN_TOOLS_SUFFIX.length);
    // By the name the plugin page shows, while the plugin is installed.
    const plugin = names.plugins.find((candidate) => candidate.plugin_id === pluginId)?.name || pluginId;
    return translator.t('agent.permission.name.pluginTools', { plugin });
  }
  return permission;
}

/** What the page knows of installed plugins and their published tools (`pluginsState`). */
export interface PluginToolNames {
  plugins: readonly { plugin_id: string; name: string }[];
  tools: readonly { name: string; plugin_id: string; tool_name: string; title?: string }[];
}

/**
 * A tool as a person knows it, for the run's phase line: a plugin's tool by its
 * title (its MCP name when it gave none) and the plugin's name. A built-in tool,
 * or one of a plugin this page does not know, keeps its id.
 */
export function toolName(
  tool: string,
  names: PluginToolNames,
  translator: { t(key: MessageKey, params?: MessageParams): string } = i18n,
): string {
  const published = names.tools.find((candidate) => candidate.name === tool);
  const plugin = published
    ? names.plugins.find((candidate) => candidate.plugin_id === published.plugin_id)
    : names.plugins.find((candidate) => tool.startsWith(`${candidate.plugin_id}.`));
  const pluginId = published?.plugin_id ?? plugin?.plugin_id;
  if (pluginId === undefined) return tool;
  const label = published?.title || published?.tool_name || tool.slice(pluginId.length + 1);
  return translator.t('plugins.toolLabel', { tool: label, plugin: plugin?.name || pluginId });
}

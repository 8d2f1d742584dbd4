import { permissionLabel } from '../extensions/plugin-refusal';
import type { PreviewAction } from '../../contracts/agent-runs';
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

/** What the prompt asks about: the action a tool's preview gave, or only the tool and its permission. */
export interface PermissionQuestionInput {
  tool: string;
  permission: string;
  action: PreviewAction | null;
}

const ASK_KEYS = {
  note_create: 'agent.permission.ask.note_create',
  note_append: 'agent.permission.ask.note_append',
  note_replace: 'agent.permission.ask.note_replace',
  tasks_add: 'agent.permission.ask.tasks_add',
  tasks_create: 'agent.permission.ask.tasks_create',
  note_organise: 'agent.permission.ask.note_organise',
} as const satisfies Record<PreviewAction['kind'], MessageKey>;

/**
 * The permission prompt's question, its accessible name: the action first, in
 * the reader's words ("Allow the agent to edit the note “Plan”?"), so a screen
 * reader user hears what is asked before any id. A tool without a preview is
 * asked about by its name and the permission's.
 */
export function permissionQuestion(
  request: PermissionQuestionInput,
  translator: { t(key: MessageKey, params?: MessageParams): string } = i18n,
  names: PluginToolNames = { plugins: [], tools: [] },
): string {
  if (request.action !== null)
    return translator.t(ASK_KEYS[request.action.kind], { title: request.action.title });
  return translator.t('agent.permission.ask.tool', {
    tool: toolName(request.tool, names, translator),
    permission: permissionName(request.permission, translator, names),
  });
}

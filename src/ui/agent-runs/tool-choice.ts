import type { AgentToolInfoDto } from '../../contracts/agent-runs';
import { i18n, type MessageKey, type MessageParams } from '../i18n';
import { permissionName, toolName, type PluginToolNames } from './permission-name';

type Translator = { t(key: MessageKey, params?: MessageParams): string };

/** The built-in tools by what they do, as the lists of Settings → Agent and the prompt name them. */
const BUILT_IN_NAME_KEYS: Readonly<Record<string, MessageKey>> = {
  'notes.search': 'agentTools.name.notesSearch',
  'notes.read': 'agentTools.name.notesRead',
  'notes.list': 'agentTools.name.notesList',
  'notes.create': 'agentTools.name.notesCreate',
  'notes.update': 'agentTools.name.notesUpdate',
  'notes.organise': 'agentTools.name.notesOrganise',
  'rag.search': 'agentTools.name.ragSearch',
  'memory.save': 'agentTools.name.memorySave',
  'math.evaluate': 'agentTools.name.mathEvaluate',
  'time.now': 'agentTools.name.timeNow',
  'tasks.create': 'agentTools.name.tasksCreate',
  'tasks.list': 'agentTools.name.tasksList',
};

/**
 * A tool as a person knows it: a built-in one by what it does ("move and tag notes"), a
 * plugin's by its title and plugin; one this page has no words for keeps its id.
 */
export function toolHumanName(
  tool: string,
  names: PluginToolNames = { plugins: [], tools: [] },
  translator: Translator = i18n,
): string {
  const key = BUILT_IN_NAME_KEYS[tool];
  return key ? translator.t(key) : toolName(tool, names, translator);
}

/**
 * The tools an "always allow" for `permission` lets through: every registered tool that asks
 * for that permission (a grant is kept per permission, not per tool), in the registry's order.
 */
export function toolsCoveredBy(
  permission: string,
  tools: readonly Pick<AgentToolInfoDto, 'name' | 'permission' | 'requires_permission'>[],
): string[] {
  return tools
    .filter((tool) => tool.requires_permission && tool.permission === permission)
    .map((tool) => tool.name);
}

/** "create notes, edit notes, move and tag notes, add to-dos": the covered tools as one phrase. */
export function coveredToolsText(
  permission: string,
  tools: readonly Pick<AgentToolInfoDto, 'name' | 'permission' | 'requires_permission'>[],
  names: PluginToolNames = { plugins: [], tools: [] },
  translator: Translator = i18n,
): string {
  return toolsCoveredBy(permission, tools)
    .map((tool) => toolHumanName(tool, names, translator))
    .join(translator.t('agentTools.listSeparator'));
}

/**
 * What the "Always allow" button grants, in words: the permission and the tools that will no
 * longer ask. With no tool known to need it (the list is not read yet), only the permission.
 */
export function alwaysAllowText(
  permission: string,
  tools: readonly Pick<AgentToolInfoDto, 'name' | 'permission' | 'requires_permission'>[],
  names: PluginToolNames = { plugins: [], tools: [] },
  translator: Translator = i18n,
): string {
  const covered = coveredToolsText(permission, tools, names, translator);
  const name = permissionName(permission, translator, names);
  return covered === ''
    ? translator.t('agent.permission.alwaysScope', { permission: name })
    : translator.t('agentTools.alwaysCovers', { permission: name, tools: covered });
}

/**
 * A run's `allowed_tools`: the registered tools the user did not turn off, or undefined when
 * none of them is off (the run is offered every tool, as before any choice was made). An
 * empty list is a run offered no tool at all: plain chat.
 */
export function allowedToolsFor(
  tools: readonly Pick<AgentToolInfoDto, 'name'>[],
  disabled: readonly string[],
): string[] | undefined {
  const off = new Set(disabled);
  if (!tools.some((tool) => off.has(tool.name))) return undefined;
  return tools.filter((tool) => !off.has(tool.name)).map((tool) => tool.name);
}

import { AppError } from '../contracts/errors';
import { PLUGIN_PERMISSIONS, type PluginToolDto } from '../contracts/plugin-types';
import { compileSchema, SchemaProblem, type CompiledSchema, type JsonObject } from './json-schema';

export const PERMISSION_META_KEY = 'notesagent/permission';
const TOOL_NAME = /^[A-Za-z][\w-]{0,47}$/;
const MAX_DESCRIPTION_CHARS = 2_000;
export const MAX_TOOLS_PER_PLUGIN = 128;
/** The agent's tool registry takes names of at most 64 characters. */
const MAX_QUALIFIED_NAME = 64;

/** What `tools/list` gives, before any check (the MCP `Tool` shape, loosely). */
export interface ListedTool {
  name: string;
  /** MCP 2025-06-18: the name a person reads; older servers put it in `annotations.title`. */
  title?: string | undefined;
  annotations?: { title?: unknown } | undefined;
  description?: string | undefined;
  inputSchema: unknown;
  _meta?: Record<string, unknown> | undefined;
}

/** A tool that passed every check, with its compiled argument schema. */
export interface PluginTool extends PluginToolDto {
  readonly compiled: CompiledSchema;
  /** The manifest's `backend.tool_timeout_seconds`, in ms: how long the agent waits for a call. */
  readonly timeout_ms?: number;
}

const MAX_TITLE_CHARS = 80;

/** The name a person reads: `title`, else `annotations.title`; blank or overlong titles are dropped. */
function titleOf(entry: ListedTool): string | undefined {
  for (const value of [entry.title, entry.annotations?.title]) {
    if (typeof value !== 'string') continue;
    const title = value.replace(/\s+/g, ' ').trim();
    if (title !== '' && title.length <= MAX_TITLE_CHARS) return title;
  }
  return undefined;
}

/**
 * Why a tool list was refused, as a stable id (`details.problem`): the page words
 * it in the reader's language, the English `reason` is for logs.
 */
export type ToolListProblem =
  | 'too_many_tools'
  | 'name_invalid'
  | 'name_too_long'
  | 'name_duplicate'
  | 'description_too_long'
  | 'schema_not_object'
  | 'schema_invalid'
  | 'permission_unknown'
  | 'permission_undeclared'
  | 'manifest_mismatch';

export interface ToolExpectations {
  pluginId: string;
  /** `contributes.tools`: the namespaced ids published to the agent. */
  agentTools: readonly string[];
  /** Tools that commands target (`mcp_tool`); listed by the server, never given to the agent. */
  commandTools: readonly string[];
  /** The permissions the manifest declares. */
  permissions: readonly string[];
}

function invalid(pluginId: string, problem: ToolListProblem, reason: string, tool?: string): AppError {
  return new AppError(
    'MCP_TOOL_SCHEMA_INVALID',
    tool
      ? `The plugin "${pluginId}" offers the tool "${tool}" with ${reason}.`
      : `The plugin "${pluginId}" offers tools that do not match its manifest: ${reason}.`,
    { plugin_id: pluginId, ...(tool !== undefined && { tool }), problem, reason },
  );
}

/**
 * §7.1: every listed tool is checked (name, JSON Schema, declared permission)
 * and the listed set must equal what the manifest declares; one failure
 * refuses the whole list, so nothing is half-published.
 */
export function checkListedTools(listed: readonly ListedTool[], expected: ToolExpectations): PluginTool[] {
  const { pluginId } = expected;
  if (listed.length > MAX_TOOLS_PER_PLUGIN)
    throw invalid(pluginId, 'too_many_tools', `more than ${MAX_TOOLS_PER_PLUGIN} tools`);
  const tools: PluginTool[] = [];
  const seen = new Set<string>();
  for (const entry of listed) {
    const toolName = typeof entry.name === 'string' ? entry.name : '';
    if (!TOOL_NAME.test(toolName))
      throw invalid(pluginId, 'name_invalid', 'a name that is not allowed', toolName.slice(0, 60));
    const name = `${pluginId}.${toolName}`;
    if (name.length > MAX_QUALIFIED_NAME)
      throw invalid(pluginId, 'name_too_long', 'a name that is too long', toolName);
    if (seen.has(name)) throw invalid(pluginId, 'name_duplicate', 'a duplicate name', toolName);
    seen.add(name);
    const description = typeof entry.description === 'string' ? entry.description : '';
    if (description.length > MAX_DESCRIPTION_CHARS)
      throw invalid(pluginId, 'description_too_long', 'a description that is too long', toolName);

    const schema = entry.inputSchema as JsonObject | undefined;
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema) || schema.type !== 'object') {
      throw invalid(pluginId, 'schema_not_object', 'an input schema that is not an object schema', toolName);
    }
    let compiled: CompiledSchema;
    try {
      compiled = compileSchema(schema);
    } catch (error) {
      const reason = error instanceof SchemaProblem ? error.message : 'an input schema that does not compile';
      throw invalid(pluginId, 'schema_invalid', `an invalid input schema (${reason})`, toolName);
    }

    const meta = entry._meta;
    let permission: string | null = null;
    if (meta !== undefined && meta !== null && PERMISSION_META_KEY in meta) {
      const declared = meta[PERMISSION_META_KEY];
      if (typeof declared !== 'string' || !(PLUGIN_PERMISSIONS as readonly string[]).includes(declared)) {
        throw invalid(pluginId, 'permission_unknown', 'an unknown permission', toolName);
      }
      if (!expected.permissions.includes(declared)) {
        throw invalid(
          pluginId,
          'permission_undeclared',
          `the permission "${declared}", which the manifest does not declare`,
          toolName,
        );
      }
      permission = declared;
    }
    tools.push({
      name,
      plugin_id: pluginId,
      tool_name: toolName,
      description,
      permission,
      input_schema: schema,
      compiled,
      ...(titleOf(entry) !== undefined && { title: titleOf(entry)! }),
    });
  }

  const wanted = new Set([...expected.agentTools, ...expected.commandTools]);
  const missing = [...wanted].filter((name) => !seen.has(name));
  const extra = [...seen].filter((name) => !wanted.has(name));
  if (missing.length > 0 || extra.length > 0) {
    const parts = [
      ...(missing.length > 0 ? [`missing ${missing.join(', ')}`] : []),
      ...(extra.length > 0 ? [`undeclared ${extra.join(', ')}`] : []),
    ];
    throw invalid(pluginId, 'manifest_mismatch', parts.join('; '));
  }
  return tools;
}

import { z } from 'zod';
import { DEFAULT_TOOL_TIMEOUT_MS, type AgentToolSpec } from '../agent/tool-registry';
import { AppError } from '../contracts/errors';
import type { McpToolOutcome } from './mcp-host';
import type { ToolSink } from './mcp-host';
import type { PluginTool } from './tool-definitions';

/** Runs a published tool; the plugin service routes it to the plugin's host. */
export type PluginToolCaller = (
  tool: PluginTool,
  args: Record<string, unknown>,
  options: { signal: AbortSignal; requestId: string },
) => Promise<McpToolOutcome>;

/**
 * The JSON Schema as zod, for the registry's IR view of the parameters (what
 * the model reads). Validation of a call uses the compiled JSON Schema
 * itself, so nothing the conversion drops is lost.
 */
function parametersOf(tool: PluginTool): z.ZodObject {
  const validate = (value: unknown, context: z.core.$RefinementCtx) => {
    for (const issue of tool.compiled.validate(value)) {
      context.addIssue({ code: 'custom', message: `${issue.path} ${issue.message}` });
    }
  };
  let shape: z.ZodObject = z.looseObject({});
  try {
    const converted = z.fromJSONSchema(tool.input_schema as Parameters<typeof z.fromJSONSchema>[0]);
    if (converted instanceof z.ZodObject) shape = converted;
  } catch {
    // A schema zod cannot express is still enforced below; the model just reads less of it.
  }
  return shape.superRefine(validate) as unknown as z.ZodObject;
}

/** How much longer the agent waits for a plugin tool than the plugin host does. */
const HOST_TIMEOUT_GRACE_MS = 2_000;

/** A published plugin tool as an agent tool: always behind a permission prompt. */
export function toAgentToolSpec(tool: PluginTool, call: PluginToolCaller): AgentToolSpec {
  // The manifest's tool_timeout_seconds (schema-bounded to 600 s). The agent waits a little
  // longer than the host, so a tool that runs out of time ends with the host's own error
  // (MCP_TOOL_CALL_FAILED, naming the plugin's limit), not the agent's generic timeout.
  const timeoutMs = (tool.timeout_ms ?? DEFAULT_TOOL_TIMEOUT_MS) + HOST_TIMEOUT_GRACE_MS;
  return {
    name: tool.name,
    description: tool.description || `A tool of the plugin ${tool.plugin_id}.`,
    parameters: parametersOf(tool),
    category: 'mcp',
    riskLevel: tool.permission === 'notes.write' || tool.permission === 'network' ? 'medium' : 'low',
    requiresPermission: true,
    permission: tool.permission ?? `${tool.plugin_id}.tools`,
    timeoutMs,
    async execute(args, context) {
      const outcome = await call(tool, args as Record<string, unknown>, {
        signal: context.signal,
        requestId: context.toolCallId,
      });
      return {
        result: { content: outcome.content, structured_content: outcome.structured_content },
        summary: outcome.text || JSON.stringify(outcome.structured_content ?? {}),
      };
    },
  };
}

/**
 * The plugin tools the agent may use, per plugin, replaced whole: a listener
 * sees either a plugin's previous tool set or its new one, never a mix.
 */
export class PluginToolRegistry implements ToolSink {
  readonly #byPlugin = new Map<string, readonly PluginTool[]>();
  readonly #listeners = new Set<() => void>();

  publish(pluginId: string, tools: readonly PluginTool[]): void {
    const names = new Set<string>();
    for (const tool of tools) {
      if (tool.plugin_id !== pluginId || names.has(tool.name)) {
        throw new AppError('MCP_TOOL_SCHEMA_INVALID', `The tools of "${pluginId}" are not consistent.`, {
          plugin_id: pluginId,
        });
      }
      names.add(tool.name);
    }
    this.#byPlugin.set(pluginId, [...tools]);
    this.#notify();
  }

  withdraw(pluginId: string): void {
    if (this.#byPlugin.delete(pluginId)) this.#notify();
  }

  list(): PluginTool[] {
    return [...this.#byPlugin.values()].flat();
  }

  get(name: string): PluginTool | undefined {
    return this.list().find((tool) => tool.name === name);
  }

  /** Called after every change; returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #notify(): void {
    for (const listener of this.#listeners) listener();
  }
}

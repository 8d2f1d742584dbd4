import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { AppError } from '../contracts/errors';
import type { PluginManifest } from '../contracts/plugins-schemas';
import type { Clock } from '../core/ids';
import { checkTargetSchema, commandToolIds } from './commands';
import type { SocketFactory } from './companion-transport';
import { streamableHttpTransport } from './http-transport';
import { McpHost, type ToolSink } from './mcp-host';
import { hostStartFailure, type LoadedPlugin } from './plugin-lifecycle';

/** How each transport is reached from here; a missing one is PLUGIN_HOST_UNAVAILABLE. */
export interface PluginConnectors {
  /** Starts the module in a dedicated worker (the app) or in-process (tests). */
  worker?: (code: Uint8Array, permissions: readonly string[]) => Promise<Transport>;
  /** The paired Node companion's stdio hosts. */
  stdio?: (
    pluginId: string,
    backend: Extract<PluginManifest['backend'], { transport: 'stdio' }>,
  ) => Promise<Transport>;
  /** Streamable HTTP to a remote server. */
  http?: (url: string) => Promise<Transport>;
  /** Opens the companion's WebSocket (the browser's; `ws` in tests): stdio plugins use it once paired. */
  companionSocket?: SocketFactory;
}

export interface ConnectOptions {
  connectors: PluginConnectors;
  /** stdio without its own connector goes through the paired companion. */
  companion: (server: { pluginId: string; command: string; args: readonly string[] }) => Promise<Transport>;
  fetch?: typeof fetch;
}

/** A fresh transport to the plugin's MCP server, by the transport its manifest declares. */
export async function connectPlugin(plugin: LoadedPlugin, options: ConnectOptions): Promise<Transport> {
  const backend = plugin.manifest.backend;
  const { connectors } = options;
  const pluginId = plugin.row.plugin_id;
  const unavailable = (what: string) =>
    new AppError('PLUGIN_HOST_UNAVAILABLE', `${what} is not available here.`, {
      plugin_id: pluginId,
      transport: backend.transport,
    });
  switch (backend.transport) {
    case 'worker': {
      if (!connectors.worker) throw unavailable('Running plugin servers in a worker');
      const code = plugin.row.files[backend.entry];
      if (!code)
        throw new AppError('PLUGIN_HOST_START_FAILED', 'The plugin server module is missing.', {
          plugin_id: pluginId,
        });
      return connectors.worker(code, plugin.row.granted_permissions);
    }
    case 'stdio':
      if (connectors.stdio) return connectors.stdio(pluginId, backend);
      return options.companion({ pluginId, command: backend.command, args: backend.args });
    case 'streamable_http':
      if (connectors.http) return connectors.http(backend.url);
      return streamableHttpTransport(backend.url, options.fetch ? { fetch: options.fetch } : {});
  }
}

export interface HostStartOptions {
  /** Where the host publishes the plugin's agent tools. */
  sink: ToolSink;
  connect: () => Promise<Transport>;
  clock: Clock;
  /** A ready host that breaks later; the plugin goes to `error`. */
  onUnhealthy: (error: AppError) => void;
}

/**
 * (Re)starts the plugin's MCP host with the manifest's timeouts and grants,
 * then checks that every command's target tool takes the envelope. On any
 * failure the host is stopped again and the failure is thrown as the code
 * the plugin is left in.
 */
export async function startPluginHost(plugin: LoadedPlugin, options: HostStartOptions): Promise<void> {
  const pluginId = plugin.row.plugin_id;
  await plugin.host?.stop();
  const backend = plugin.manifest.backend;
  const host = new McpHost({
    pluginId,
    transport: backend.transport,
    agentTools: plugin.manifest.contributes.tools,
    commandTools: commandToolIds(plugin.commands),
    permissions: plugin.row.granted_permissions,
    sink: options.sink,
    connect: options.connect,
    startupTimeoutMs: backend.startup_timeout_seconds * 1000,
    toolTimeoutMs: backend.tool_timeout_seconds * 1000,
    clock: options.clock,
    onUnhealthy: options.onUnhealthy,
  });
  plugin.host = host;
  try {
    await host.start();
    for (const command of plugin.commands) {
      const target = command.contribution.target;
      if (target.type !== 'mcp_tool') continue;
      const tool = host.tools().find((candidate) => candidate.name === target.tool);
      checkTargetSchema(command, tool?.input_schema);
    }
  } catch (error) {
    await host.stop();
    throw hostStartFailure(pluginId, error);
  }
}

/// <reference lib="webworker" />
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { PostMessageTransport } from '../plugins/post-message-transport';
import type { PluginWorkerControl } from '../plugins/worker-connector';

/**
 * One plugin's MCP server. The module comes from the plugin package as bytes
 * and is imported from a Blob URL; it gets the MCP SDK handed in (it cannot
 * import packages) and must not reach the app's storage, so the storage APIs
 * (and, without the `network` permission, the network APIs) are removed from
 * this worker's global scope before the module runs.
 */
const scope = self as unknown as DedicatedWorkerGlobalScope & Record<string, unknown>;

const STORAGE_APIS = ['indexedDB', 'caches', 'Worker', 'SharedWorker', 'BroadcastChannel'];
const NETWORK_APIS = ['fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource', 'WebTransport'];

function remove(names: readonly string[]): void {
  for (const name of names) {
    Object.defineProperty(scope, name, { value: undefined, writable: false, configurable: false });
  }
}

/** What a plugin module's default export receives. */
export const pluginSdk = { McpServer, Server, CallToolRequestSchema, ListToolsRequestSchema };
type PluginModule = {
  default: (sdk: typeof pluginSdk) => { connect(transport: PostMessageTransport): Promise<void> };
};

let loaded = false;
scope.addEventListener('message', (event: MessageEvent<PluginWorkerControl>) => {
  const data = event.data;
  if (loaded || data?.channel !== 'control' || data.kind !== 'load') return;
  loaded = true;
  const reply = (message: PluginWorkerControl) => scope.postMessage(message);
  void (async () => {
    try {
      remove(STORAGE_APIS);
      if (!data.permissions.includes('network')) remove(NETWORK_APIS);
      Object.defineProperty(scope.navigator, 'storage', { value: undefined, configurable: false });
      const url = URL.createObjectURL(new Blob([data.code], { type: 'text/javascript' }));
      const module = (await import(/* @vite-ignore */ url)) as PluginModule;
      URL.revokeObjectURL(url);
      if (typeof module.default !== 'function') throw new Error('the module has no default export');
      const server = module.default(pluginSdk);
      await server.connect(new PostMessageTransport(scope));
      reply({ channel: 'control', kind: 'loaded' });
    } catch (error) {
      const message = error instanceof Error ? error.message.slice(0, 300) : 'the module failed to load';
      reply({ channel: 'control', kind: 'load_failed', message });
    }
  })();
});

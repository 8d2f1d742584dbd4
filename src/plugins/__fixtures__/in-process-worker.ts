import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { PostMessageTransport } from '../post-message-transport';
import type { PluginWorkerControl, PluginWorkerHandle } from '../worker-connector';

const pluginSdk = { McpServer, Server, CallToolRequestSchema, ListToolsRequestSchema };

/**
 * The plugin worker's load protocol over a MessageChannel, in this thread:
 * the module is imported from a data: URL (Node has no Blob URL imports),
 * then its server is connected to a PostMessageTransport, as
 * `plugin.worker.ts` does in the browser.
 */
export function inProcessPluginWorker(): PluginWorkerHandle & { terminated: boolean } {
  const channel = new MessageChannel();
  const inside = channel.port2;
  inside.addEventListener('message', (event: MessageEvent<PluginWorkerControl>) => {
    const data = event.data;
    if (data?.channel !== 'control' || data.kind !== 'load') return;
    void (async () => {
      try {
        const source = Buffer.from(new Uint8Array(data.code)).toString('base64');
        const module = (await import(/* @vite-ignore */ `data:text/javascript;base64,${source}`)) as {
          default: (sdk: typeof pluginSdk) => { connect(transport: PostMessageTransport): Promise<void> };
        };
        await module.default(pluginSdk).connect(new PostMessageTransport(inside));
        inside.postMessage({ channel: 'control', kind: 'loaded' } satisfies PluginWorkerControl);
      } catch (error) {
        const message = error instanceof Error ? error.message : 'failed';
        inside.postMessage({ channel: 'control', kind: 'load_failed', message } satisfies PluginWorkerControl);
      }
    })();
  });
  inside.start();
  const outside = channel.port1;
  outside.start();
  const handle = {
    terminated: false,
    onerror: null as ((event: ErrorEvent) => void) | null,
    postMessage: (message: unknown, transfer?: Transferable[]) =>
      outside.postMessage(message, (transfer ?? []) as Transferable[]),
    addEventListener: (type: 'message', listener: (event: MessageEvent) => void) =>
      outside.addEventListener(type, listener),
    removeEventListener: (type: 'message', listener: (event: MessageEvent) => void) =>
      outside.removeEventListener(type, listener),
    terminate: () => {
      handle.terminated = true;
      outside.close();
      inside.close();
    },
  };
  return handle;
}

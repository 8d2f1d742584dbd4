import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { PostMessageTransport, type MessageEndpoint } from './post-message-transport';
import { TransportFault } from './transport-fault';

/** What the core worker needs of a plugin worker (a real Worker in the app, a fake in tests). */
export interface PluginWorkerHandle extends MessageEndpoint {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  terminate(): void;
  onerror: ((event: ErrorEvent) => void) | null;
}

/** Control messages between the core worker and a plugin worker (beside the `mcp` channel). */
export type PluginWorkerControl =
  | { channel: 'control'; kind: 'load'; code: ArrayBuffer; permissions: string[] }
  | { channel: 'control'; kind: 'loaded' }
  | { channel: 'control'; kind: 'load_failed'; message: string };

function isControl(value: unknown): value is PluginWorkerControl {
  return (
    typeof value === 'object' && value !== null && (value as { channel?: unknown }).channel === 'control'
  );
}

/**
 * Starts a plugin's MCP server module in its own worker and returns the
 * transport to it. The module's bytes travel to the worker, which loads them
 * from a Blob URL; a module that fails to load is PLUGIN_HOST_START_FAILED
 * (through the host), an uncaught error later closes the transport.
 */
export async function connectPluginWorker(
  createWorker: () => PluginWorkerHandle,
  code: Uint8Array,
  permissions: readonly string[],
): Promise<Transport> {
  const worker = createWorker();
  try {
    await new Promise<void>((resolve, reject) => {
      const listener = (event: MessageEvent) => {
        if (!isControl(event.data)) return;
        worker.removeEventListener('message', listener);
        if (event.data.kind === 'loaded') resolve();
        else if (event.data.kind === 'load_failed')
          reject(new TransportFault('start_failed', event.data.message));
      };
      worker.addEventListener('message', listener);
      worker.onerror = (event) => {
        event.preventDefault?.();
        reject(new TransportFault('start_failed', 'the plugin module failed to load'));
      };
      const copy = code.slice().buffer;
      const load: PluginWorkerControl = {
        channel: 'control',
        kind: 'load',
        code: copy,
        permissions: [...permissions],
      };
      worker.postMessage(load, [copy]);
    });
  } catch (error) {
    worker.terminate();
    throw error;
  }
  const opened = new PostMessageTransport(worker, { onTerminate: () => worker.terminate() });
  worker.onerror = (event) => {
    event.preventDefault?.();
    opened.onerror?.(new TransportFault('exited', 'the plugin worker failed'));
    opened.closedByPeer();
  };
  return opened;
}

import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { MCP_MAX_MESSAGE_BYTES } from '../contracts/plugin-types';
import { parseMessageText, TransportFault } from './transport-fault';

/** A worker, `self` inside one, or a MessagePort. */
export interface MessageEndpoint {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

/** The envelope on the wire: MCP messages travel as JSON text so their size is known before parsing. */
export interface McpWireMessage {
  channel: 'mcp';
  text: string;
}

export function isMcpWireMessage(value: unknown): value is McpWireMessage {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { channel?: unknown }).channel === 'mcp' &&
    typeof (value as { text?: unknown }).text === 'string'
  );
}

/**
 * The SDK's Transport over postMessage, used on both sides of the plugin
 * worker. Each message is JSON text, checked against the 2 MiB cap before it
 * is parsed; a bad one is a TransportFault (the host goes unhealthy).
 * `onTerminate` lets the owner end the worker when the transport closes.
 */
export class PostMessageTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  #closed = false;
  readonly #listener = (event: MessageEvent) => {
    if (this.#closed || !isMcpWireMessage(event.data)) return;
    let message: unknown;
    try {
      message = parseMessageText(event.data.text, this.maxMessageBytes);
    } catch (error) {
      this.onerror?.(
        error instanceof TransportFault ? error : new TransportFault('invalid_message', 'bad message'),
      );
      return;
    }
    this.onmessage?.(message as JSONRPCMessage);
  };

  constructor(
    private readonly endpoint: MessageEndpoint,
    private readonly options: { onTerminate?: () => void; maxMessageBytes?: number } = {},
  ) {}

  private get maxMessageBytes(): number {
    return this.options.maxMessageBytes ?? MCP_MAX_MESSAGE_BYTES;
  }

  async start(): Promise<void> {
    this.endpoint.addEventListener('message', this.#listener);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) throw new TransportFault('exited', 'the transport is closed');
    const wire: McpWireMessage = { channel: 'mcp', text: JSON.stringify(message) };
    this.endpoint.postMessage(wire);
  }

  async close(): Promise<void> {
    this.#shutdown();
  }

  /** The other side went away (the worker crashed or was ended). */
  closedByPeer(): void {
    this.#shutdown();
  }

  #shutdown(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.endpoint.removeEventListener('message', this.#listener);
    this.options.onTerminate?.();
    this.onclose?.();
  }
}

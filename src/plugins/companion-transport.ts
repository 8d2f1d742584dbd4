import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { AppError, isErrorEnvelope } from '../contracts/errors';
import { parseMessageText, TransportFault } from './transport-fault';

/** The part of the WebSocket API used here (the browser's, or `ws` in Node tests). */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(
    type: 'open' | 'close' | 'error' | 'message',
    listener: (event: { data?: unknown }) => void,
  ): void;
}
export type SocketFactory = (url: string, protocols: string[]) => SocketLike;

export interface CompanionServerRequest {
  /** `ws://127.0.0.1:<port>/` of the paired companion. */
  url: string;
  /** The pairing token (a vault secret); sent as a `token.<token>` subprotocol. */
  token: string;
  pluginId: string;
  command: string;
  args: readonly string[];
  onStderr?: (line: string) => void;
}

type Wire =
  | { channel: 'mcp'; text: string }
  | { channel: 'stderr'; text: string }
  | { channel: 'control'; kind: 'started' }
  | { channel: 'control'; kind: 'fault'; reason: string }
  | { channel: 'control'; kind: 'refused'; status: number; error: unknown };

/**
 * A stdio server run by the companion, as an SDK Transport: the companion
 * relays its JSON-RPC lines over an authenticated local WebSocket. A refusal
 * (no approval, bad executable) rejects `start` with the companion's code.
 */
export class CompanionTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  #socket: SocketLike | undefined;
  #closed = false;

  constructor(
    private readonly request: CompanionServerRequest,
    private readonly createSocket: SocketFactory,
  ) {}

  start(): Promise<void> {
    const { request } = this;
    return new Promise((resolve, reject) => {
      let started = false;
      const socket = this.createSocket(request.url, [`token.${request.token}`]);
      this.#socket = socket;
      socket.addEventListener('open', () => {
        socket.send(
          JSON.stringify({
            type: 'start',
            plugin_id: request.pluginId,
            command: request.command,
            args: request.args,
          }),
        );
      });
      socket.addEventListener('error', () => {
        if (!started)
          reject(
            new AppError(
              'PLUGIN_HOST_UNAVAILABLE',
              'The companion could not be reached; is it running and paired?',
            ),
          );
      });
      socket.addEventListener('close', () => {
        if (!started) reject(new AppError('PLUGIN_HOST_UNAVAILABLE', 'The companion closed the connection.'));
        this.#finish();
      });
      socket.addEventListener('message', (event) => {
        let wire: Wire;
        try {
          wire = JSON.parse(String(event.data)) as Wire;
        } catch {
          this.onerror?.(
            new TransportFault('invalid_message', 'the companion sent something that is not JSON'),
          );
          return;
        }
        if (wire.channel === 'control') {
          if (wire.kind === 'started') {
            started = true;
            resolve();
          } else if (wire.kind === 'refused') {
            const envelope = { error: wire.error };
            reject(
              isErrorEnvelope(envelope)
                ? AppError.fromEnvelope(envelope)
                : new AppError('PLUGIN_HOST_START_FAILED', 'The companion refused to start the server.'),
            );
          } else if (wire.kind === 'fault') {
            this.onerror?.(
              new TransportFault(
                wire.reason === 'message_too_large' ? 'message_too_large' : 'invalid_message',
                'the server broke the protocol',
              ),
            );
          }
          return;
        }
        if (wire.channel === 'stderr') {
          request.onStderr?.(wire.text);
          return;
        }
        if (wire.channel !== 'mcp') return;
        let message: unknown;
        try {
          message = parseMessageText(wire.text);
        } catch (error) {
          this.onerror?.(
            error instanceof TransportFault ? error : new TransportFault('invalid_message', 'bad line'),
          );
          return;
        }
        this.onmessage?.(message as JSONRPCMessage);
      });
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed || !this.#socket)
      throw new TransportFault('exited', 'the companion connection is closed');
    this.#socket.send(JSON.stringify({ channel: 'mcp', text: JSON.stringify(message) }));
  }

  async close(): Promise<void> {
    this.#socket?.close(1000, 'closed');
    this.#finish();
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.onclose?.();
  }
}

import { MCP_MAX_MESSAGE_BYTES } from '../contracts/plugin-types';

export type TransportFaultKind = 'message_too_large' | 'invalid_message' | 'exited' | 'start_failed';

/**
 * A transport's report that the server broke the protocol or went away. The
 * host turns it into `unhealthy` and withdraws the plugin's tools; any other
 * error a transport reports is logged and ignored.
 */
export class TransportFault extends Error {
  override readonly name = 'TransportFault';
  constructor(
    readonly kind: TransportFaultKind,
    message: string,
  ) {
    super(message);
  }
}

const encoder = new TextEncoder();

export function utf8Length(text: string): number {
  return encoder.encode(text).byteLength;
}

/** A UTF-16 unit takes at most 3 UTF-8 bytes, so short text needs no encoding to be checked. */
export function exceedsBytes(text: string, maxBytes: number): boolean {
  if (text.length > maxBytes) return true;
  return text.length * 3 > maxBytes && utf8Length(text) > maxBytes;
}

/**
 * One JSON-RPC message as text → object, refusing oversized text before it
 * is parsed and anything that is not a JSON object.
 */
export function parseMessageText(text: string, maxBytes = MCP_MAX_MESSAGE_BYTES): unknown {
  if (exceedsBytes(text, maxBytes)) {
    throw new TransportFault('message_too_large', `a message is larger than ${maxBytes} bytes`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new TransportFault('invalid_message', 'the server sent a line that is not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TransportFault('invalid_message', 'the server sent a message that is not a JSON-RPC object');
  }
  if ((value as { jsonrpc?: unknown }).jsonrpc !== '2.0') {
    throw new TransportFault('invalid_message', 'the server sent a message without jsonrpc "2.0"');
  }
  return value;
}

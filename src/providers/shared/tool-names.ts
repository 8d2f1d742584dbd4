import type { MetonaToolDef } from '../../ir';
import type { StreamPart } from './stream-parts';

/**
 * Tool names on the wire. The IR namespaces tools with dots (`notes.read`);
 * OpenAI-style and Anthropic function names must match `^[a-zA-Z0-9_-]{1,64}$`.
 * One codec per request maps IR names to valid, unique wire names and back, so
 * only the adapter boundary ever sees the wire form.
 */
export interface ToolNameCodec {
  /** IR name → wire name; a name not in the request's tools is encoded (and remembered) too. */
  toWire(name: string): string;
  /** Wire name → IR name; an unknown wire name passes through unchanged (the loop reports it). */
  fromWire(wireName: string): string;
}

export const WIRE_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_LENGTH = 64;
const HASH_LENGTH = 8;

/** Dot → `__`, any other character outside `[A-Za-z0-9_-]` (per code point) → `_`. */
function sanitize(name: string): string {
  let out = '';
  for (const char of name) {
    if (char === '.') out += '__';
    else out += /^[A-Za-z0-9_-]$/.test(char) ? char : '_';
  }
  return out === '' ? '_' : out;
}

/** FNV-1a over the UTF-16 units, 8 hex digits. */
function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(HASH_LENGTH, '0');
}

function withSuffix(base: string, seed: string): string {
  return `${base.slice(0, MAX_LENGTH - HASH_LENGTH - 1)}_${shortHash(seed)}`;
}

export function createToolNameCodec(tools: readonly Pick<MetonaToolDef, 'name'>[]): ToolNameCodec {
  const toWireMap = new Map<string, string>();
  const fromWireMap = new Map<string, string>();

  const register = (name: string): string => {
    const known = toWireMap.get(name);
    if (known !== undefined) return known;
    const sanitized = sanitize(name);
    let wire = sanitized;
    if (wire.length > MAX_LENGTH || fromWireMap.has(wire)) wire = withSuffix(sanitized, name);
    for (let salt = 1; fromWireMap.has(wire); salt++) wire = withSuffix(sanitized, `${name}#${salt}`);
    toWireMap.set(name, wire);
    fromWireMap.set(wire, name);
    return wire;
  };

  // Names already valid on the wire keep their spelling; the rest are encoded after them,
  // so `a__b` stays `a__b` and `a.b` gets a suffix whatever the order of the tools.
  const names = [...new Set(tools.map((tool) => tool.name))];
  for (const name of names) if (WIRE_TOOL_NAME.test(name)) register(name);
  for (const name of names) register(name);

  return {
    toWire: register,
    fromWire: (wireName) => fromWireMap.get(wireName) ?? wireName,
  };
}

/** Stream parts with wire tool names turned back into IR names. */
export async function* decodeToolNames(
  parts: AsyncIterable<StreamPart>,
  codec: ToolNameCodec,
): AsyncGenerator<StreamPart> {
  for await (const part of parts) yield decodeToolName(part, codec);
}

/** The same mapping for one part, for converters that hand parts over in batches. */
export function decodeToolName(part: StreamPart, codec: ToolNameCodec): StreamPart {
  if (part.type === 'tool_call_complete') {
    return { ...part, toolCall: { ...part.toolCall, name: codec.fromWire(part.toolCall.name) } };
  }
  if (part.type === 'tool_call_delta' && part.toolCallDelta.name !== undefined) {
    return {
      ...part,
      toolCallDelta: { ...part.toolCallDelta, name: codec.fromWire(part.toolCallDelta.name) },
    };
  }
  return part;
}

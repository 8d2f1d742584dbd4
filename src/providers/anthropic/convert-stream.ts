import type { MetonaFinishReason } from '../../ir';
import { invalidResponseError, mapStreamError } from '../shared/errors';
import { SseDecoder } from '../shared/sse';
import { readStreamParts } from '../shared/read-stream-parts';
import type { StreamPart } from '../shared/stream-parts';
import { ToolCallAssembler } from '../shared/tool-call-assembler';
import type { ToolNameCodec } from '../shared/tool-names';
import { mapAnthropicStopReason, mapAnthropicUsage, mergeAnthropicUsage } from './map-finish-reason';
import type { ThinkingSignatures } from './thinking-signatures';
import { parseAnthropicStreamData, type AnthropicEvent, type AnthropicUsage } from './wire-schemas';

export interface AnthropicStreamOptions {
  provider: string;
  requestId: string;
  signatures: ThinkingSignatures;
}

type OpenBlock =
  | { kind: 'text' }
  | { kind: 'thinking'; text: string; signature: string }
  | { kind: 'tool'; toolIndex: number }
  | { kind: 'other' };

/**
 * Messages API SSE to stream parts. Per-call state in this closure: the open
 * content blocks by index, the tool-call buffer (keyed by block index, one call
 * per tool_use block, completed at its content_block_stop), usage and the stop
 * reason. The stream ends at `message_stop`.
 */
export function createAnthropicStreamConverter({
  provider,
  requestId,
  signatures,
}: AnthropicStreamOptions): (data: string, out: StreamPart[]) => boolean {
  const blocks = new Map<number, OpenBlock>();
  const toolCalls = new ToolCallAssembler({ provider, fallbackId: (index) => `toolu_${requestId}_${index}` });
  let toolCount = 0;
  let usage: AnthropicUsage = {};
  let sawUsage = false;
  let stopReason: MetonaFinishReason | undefined;
  let model: string | undefined;

  /** Parts of one event; false when it ended the stream (error or message_stop). */
  function convertEvent(event: AnthropicEvent, out: StreamPart[]): boolean {
    switch (event.type) {
      case 'message_start':
        model = event.message.model ?? undefined;
        if (event.message.usage) {
          usage = mergeAnthropicUsage(usage, event.message.usage);
          sawUsage = true;
        }
        return true;
      case 'content_block_start': {
        const block = event.content_block;
        switch (block.type) {
          case 'text':
            blocks.set(event.index, { kind: 'text' });
            if (block.text) out.push({ type: 'text_delta', delta: block.text });
            return true;
          case 'thinking':
            blocks.set(event.index, {
              kind: 'thinking',
              text: block.thinking,
              signature: block.signature ?? '',
            });
            out.push({ type: 'thinking_start' });
            if (block.thinking) out.push({ type: 'reasoning_delta', delta: block.thinking });
            return true;
          case 'tool_use': {
            const toolIndex = toolCount++;
            blocks.set(event.index, { kind: 'tool', toolIndex });
            const initial =
              block.input && Object.keys(block.input).length > 0 ? JSON.stringify(block.input) : '';
            toolCalls.add({ index: toolIndex, id: block.id, name: block.name, argsDelta: initial });
            out.push({
              type: 'tool_call_delta',
              toolCallDelta: { index: toolIndex, name: block.name, ...(initial && { argsDelta: initial }) },
            });
            return true;
          }
          case 'redacted_thinking': // encrypted: nothing to show
          case 'other':
            blocks.set(event.index, { kind: 'other' });
            return true;
          default: {
            const unhandled: never = block;
            throw new Error(`Unknown content block ${JSON.stringify(unhandled)}`);
          }
        }
      }
      case 'content_block_delta': {
        const block = blocks.get(event.index);
        const delta = event.delta;
        switch (delta.type) {
          case 'text_delta':
            if (block?.kind === 'text') out.push({ type: 'text_delta', delta: delta.text });
            return true;
          case 'thinking_delta':
            if (block?.kind === 'thinking') {
              block.text += delta.thinking;
              out.push({ type: 'reasoning_delta', delta: delta.thinking });
            }
            return true;
          case 'signature_delta':
            if (block?.kind === 'thinking') block.signature += delta.signature;
            return true;
          case 'input_json_delta':
            if (block?.kind === 'tool' && delta.partial_json !== '') {
              toolCalls.add({ index: block.toolIndex, argsDelta: delta.partial_json });
              out.push({
                type: 'tool_call_delta',
                toolCallDelta: { index: block.toolIndex, argsDelta: delta.partial_json },
              });
            }
            return true;
          case 'other':
            return true;
          default: {
            const unhandled: never = delta;
            throw new Error(`Unknown delta ${JSON.stringify(unhandled)}`);
          }
        }
      }
      case 'content_block_stop': {
        const block = blocks.get(event.index);
        blocks.delete(event.index);
        if (block?.kind === 'thinking') {
          signatures.remember(block.text, block.signature);
          out.push({ type: 'thinking_end' });
        }
        if (block?.kind === 'tool') {
          for (const result of toolCalls.complete(block.toolIndex)) {
            if (!result.ok) {
              out.push({ type: 'error', error: result.error });
              return false;
            }
            out.push({ type: 'tool_call_complete', toolCall: result.call });
          }
        }
        return true;
      }
      case 'message_delta':
        if (event.delta.stop_reason) stopReason = mapAnthropicStopReason(event.delta.stop_reason);
        if (event.usage) {
          usage = mergeAnthropicUsage(usage, event.usage);
          sawUsage = true;
        }
        return true;
      case 'message_stop':
        if (sawUsage) out.push({ type: 'usage', usage: mapAnthropicUsage(usage) });
        out.push({
          type: 'finish',
          finishReason: stopReason ?? (toolCount > 0 ? 'tool_calls' : 'stop'),
          ...(model && { model }),
        });
        return false;
      case 'ping':
        return true;
      case 'error':
        out.push({
          type: 'error',
          error: mapStreamError({ message: event.error.message, providerCode: event.error.type }, provider),
        });
        return false;
      default: {
        const unhandled: never = event;
        throw new Error(`Unknown event ${JSON.stringify(unhandled)}`);
      }
    }
  }

  /** Appends the parts of one SSE `data:` payload; false once the stream has ended. */
  return (data, out) => {
    const item = parseAnthropicStreamData(data);
    switch (item.kind) {
      case 'event':
        return convertEvent(item.event, out);
      case 'ignored':
        return true;
      case 'invalid':
        out.push({ type: 'error', error: invalidResponseError(provider, item.message) });
        return false;
      default: {
        const unhandled: never = item;
        throw new Error(`Unknown stream item ${JSON.stringify(unhandled)}`);
      }
    }
  };
}

/** A response body straight to stream parts, one array per network read (see readStreamParts). */
export function readAnthropicStream(
  body: ReadableStream<Uint8Array>,
  options: AnthropicStreamOptions,
  codec: ToolNameCodec,
): AsyncGenerator<StreamPart[]> {
  const convert = createAnthropicStreamConverter(options);
  return readStreamParts(body, new SseDecoder(), (event, out) => convert(event.data, out), codec);
}

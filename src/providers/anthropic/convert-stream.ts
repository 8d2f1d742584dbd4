import type { MetonaFinishReason } from '../../ir';
import { invalidResponseError, mapStreamError } from '../shared/errors';
import type { SseEvent } from '../shared/sse';
import type { StreamPart } from '../shared/stream-parts';
import { ToolCallAssembler } from '../shared/tool-call-assembler';
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
export async function* convertAnthropicStream(
  events: AsyncIterable<SseEvent>,
  { provider, requestId, signatures }: AnthropicStreamOptions,
): AsyncGenerator<StreamPart> {
  const blocks = new Map<number, OpenBlock>();
  const toolCalls = new ToolCallAssembler({ provider, fallbackId: (index) => `toolu_${requestId}_${index}` });
  let toolCount = 0;
  let usage: AnthropicUsage = {};
  let sawUsage = false;
  let stopReason: MetonaFinishReason | undefined;
  let model: string | undefined;

  /** Parts of one event; false when it ended the stream (error or message_stop). */
  function* convertEvent(event: AnthropicEvent): Generator<StreamPart, boolean> {
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
            if (block.text) yield { type: 'text_delta', delta: block.text };
            return true;
          case 'thinking':
            blocks.set(event.index, {
              kind: 'thinking',
              text: block.thinking,
              signature: block.signature ?? '',
            });
            yield { type: 'thinking_start' };
            if (block.thinking) yield { type: 'reasoning_delta', delta: block.thinking };
            return true;
          case 'tool_use': {
            const toolIndex = toolCount++;
            blocks.set(event.index, { kind: 'tool', toolIndex });
            const initial =
              block.input && Object.keys(block.input).length > 0 ? JSON.stringify(block.input) : '';
            toolCalls.add({ index: toolIndex, id: block.id, name: block.name, argsDelta: initial });
            yield {
              type: 'tool_call_delta',
              toolCallDelta: { index: toolIndex, name: block.name, ...(initial && { argsDelta: initial }) },
            };
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
            if (block?.kind === 'text') yield { type: 'text_delta', delta: delta.text };
            return true;
          case 'thinking_delta':
            if (block?.kind === 'thinking') {
              block.text += delta.thinking;
              yield { type: 'reasoning_delta', delta: delta.thinking };
            }
            return true;
          case 'signature_delta':
            if (block?.kind === 'thinking') block.signature += delta.signature;
            return true;
          case 'input_json_delta':
            if (block?.kind === 'tool' && delta.partial_json !== '') {
              toolCalls.add({ index: block.toolIndex, argsDelta: delta.partial_json });
              yield {
                type: 'tool_call_delta',
                toolCallDelta: { index: block.toolIndex, argsDelta: delta.partial_json },
              };
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
          yield { type: 'thinking_end' };
        }
        if (block?.kind === 'tool') {
          for (const result of toolCalls.complete(block.toolIndex)) {
            if (!result.ok) {
              yield { type: 'error', error: result.error };
              return false;
            }
            yield { type: 'tool_call_complete', toolCall: result.call };
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
        if (sawUsage) yield { type: 'usage', usage: mapAnthropicUsage(usage) };
        yield {
          type: 'finish',
          finishReason: stopReason ?? (toolCount > 0 ? 'tool_calls' : 'stop'),
          ...(model && { model }),
        };
        return false;
      case 'ping':
        return true;
      case 'error':
        yield {
          type: 'error',
          error: mapStreamError({ message: event.error.message, providerCode: event.error.type }, provider),
        };
        return false;
      default: {
        const unhandled: never = event;
        throw new Error(`Unknown event ${JSON.stringify(unhandled)}`);
      }
    }
  }

  for await (const sse of events) {
    const item = parseAnthropicStreamData(sse.data);
    switch (item.kind) {
      case 'event':
        if (!(yield* convertEvent(item.event))) return;
        break;
      case 'ignored':
        break;
      case 'invalid':
        yield { type: 'error', error: invalidResponseError(provider, item.message) };
        return;
      default: {
        const unhandled: never = item;
        throw new Error(`Unknown stream item ${JSON.stringify(unhandled)}`);
      }
    }
  }
}

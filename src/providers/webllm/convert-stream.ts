import { MetonaProviderError, type MetonaPerfStats } from '../../ir';
import { convertOpenAIStream } from '../openai-compatible/convert-stream';
import type { SseEvent } from '../shared/sse';
import type { StreamPart } from '../shared/stream-parts';
import type { RequestToolMode } from './convert-request';
import type { WebLlmChunk, WebLlmUsage } from './engine-port';
import { WEBLLM_PROVIDER_ID } from '../../models/model-catalog';
import { parsePromptedToolCalls, PromptedToolCallStream, type PromptedToolCall } from './prompted-tools';

/**
 * web-llm's chunks to stream parts. web-llm speaks OpenAI's chunk format, so
 * the OpenAI-compatible conversion does the work (deltas, tool-call buffer,
 * finish reasons, usage); this file adds what is web-llm's own:
 * - `usage.extra` (prefill/decode tokens per second, time to first token) to
 *   the response's perf stats;
 * - a leading `<think>…</think>` block (Qwen3) to reasoning: only text the
 *   model wrote, nothing invented, and an empty block (thinking switched off)
 *   to nothing;
 * - native tools (Hermes): web-llm streams the JSON list of calls as content
 *   and converts it only in its last chunk, so that content is not text;
 * - prompted tools: calls parsed out of the text (`prompted-tools.ts`).
 */

export interface WebLlmStreamOptions {
  requestId: string;
  toolMode: RequestToolMode;
  toolNames: readonly string[];
  /** Perf figures only the caller knows (the model load this request waited for). */
  perfExtras?: () => Partial<MetonaPerfStats>;
}

type UsageExtra = WebLlmUsage['extra'];

const finite = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0;

/**
 * The IR has four perf fields; web-llm's figures map onto them: decode tokens/s
 * is `tokensPerSecond`, time to first token is the prefill (`promptEvalDurationMs`,
 * web-llm reports TTFT as the prefill time), and prefill tokens/s is
 * `usage.inputTokens / promptEvalDurationMs`.
 */
export function perfStatsFromUsageExtra(extra: Partial<UsageExtra> | undefined): MetonaPerfStats {
  if (!extra) return {};
  const ttft = extra.time_to_first_token_s;
  const e2e = extra.e2e_latency_s;
  return {
    ...(finite(extra.decode_tokens_per_s) && { tokensPerSecond: extra.decode_tokens_per_s }),
    ...(finite(ttft) && { promptEvalDurationMs: ttft * 1000 }),
    ...(finite(e2e) && finite(ttft) && { evalDurationMs: Math.max(0, e2e - ttft) * 1000 }),
  };
}

/** Chunks as the SSE events the OpenAI conversion reads; `[DONE]` only after a finish chunk. */
async function* asSseEvents(
  chunks: AsyncIterable<WebLlmChunk>,
  seen: { extra?: Partial<UsageExtra> },
): AsyncGenerator<SseEvent> {
  let finished = false;
  for await (const chunk of chunks) {
    if (chunk.usage?.extra) seen.extra = chunk.usage.extra;
    if (chunk.choices.some((choice) => choice.finish_reason)) finished = true;
    yield { event: 'message', data: JSON.stringify(chunk) };
  }
  // A stream that stopped before its finish chunk (a killed worker) stays unfinished.
  if (finished) yield { event: 'message', data: '[DONE]' };
}

type Piece = { kind: 'reasoning' | 'text'; delta: string };

const OPEN = '<think>';
const CLOSE = '</think>';

/** Splits a leading `<think>…</think>` block off the text, across chunk boundaries. */
export class ThinkTagSplitter {
  #state: 'start' | 'thinking' | 'after' | 'text' = 'start';
  #buffer = '';
  #reasoningStarted = false;
  /** Whitespace inside the block, held until more reasoning follows (none is trailing). */
  #space = '';

  push(delta: string): Piece[] {
    this.#buffer += delta;
    const out: Piece[] = [];
    for (;;) {
      const before = this.#state;
      this.#step(out);
      if (this.#state === before) return out;
    }
  }

  finish(): Piece[] {
    const out: Piece[] = [];
    if (this.#state === 'thinking') {
      // An unclosed block (the model ran out of tokens while thinking) stays reasoning.
      this.#reasoning(out, this.#buffer);
    } else if (this.#state !== 'after' && this.#buffer !== '') {
      out.push({ kind: 'text', delta: this.#buffer });
    }
    this.#buffer = '';
    this.#state = 'text';
    return out;
  }

  #reasoning(out: Piece[], text: string): void {
    if (text === '') return;
    const leading = this.#reasoningStarted ? this.#space + text : text.trimStart();
    const body = leading.trimEnd();
    this.#space = leading.slice(body.length);
    if (body === '') return;
    this.#reasoningStarted = true;
    out.push({ kind: 'reasoning', delta: body });
  }

  #step(out: Piece[]): void {
    switch (this.#state) {
      case 'start': {
        const trimmed = this.#buffer.trimStart();
        if (trimmed.startsWith(OPEN)) {
          this.#buffer = trimmed.slice(OPEN.length);
          this.#state = 'thinking';
        } else if (trimmed.length >= OPEN.length || !OPEN.startsWith(trimmed)) {
          this.#state = 'text';
        }
        return;
      }
      case 'thinking': {
        const close = this.#buffer.indexOf(CLOSE);
        if (close !== -1) {
          this.#reasoning(out, this.#buffer.slice(0, close));
          this.#buffer = this.#buffer.slice(close + CLOSE.length);
          this.#state = 'after';
          return;
        }
        // Keep a possible start of "</think>".
        let keep = 0;
        for (let size = Math.min(CLOSE.length - 1, this.#buffer.length); size > 0; size--) {
          if (CLOSE.startsWith(this.#buffer.slice(-size))) {
            keep = size;
            break;
          }
        }
        this.#reasoning(out, this.#buffer.slice(0, this.#buffer.length - keep));
        this.#buffer = this.#buffer.slice(this.#buffer.length - keep);
        return;
      }
      case 'after': {
        this.#buffer = this.#buffer.trimStart();
        if (this.#buffer !== '') this.#state = 'text';
        return;
      }
      case 'text':
        if (this.#buffer !== '') out.push({ kind: 'text', delta: this.#buffer });
        this.#buffer = '';
        return;
      default: {
        const unhandled: never = this.#state;
        throw new Error(`Unknown state ${String(unhandled)}`);
      }
    }
  }
}

function isToolOutputError(error: unknown): boolean {
  return error instanceof MetonaProviderError && (error.providerCode ?? '').startsWith('ToolCallOutput');
}

export async function* convertWebLlmStream(
  chunks: AsyncIterable<WebLlmChunk>,
  options: WebLlmStreamOptions,
): AsyncGenerator<StreamPart> {
  const provider = WEBLLM_PROVIDER_ID;
  const { requestId, toolMode } = options;
  const seen: { extra?: Partial<UsageExtra> } = {};
  const parts = convertOpenAIStream(asSseEvents(chunks, seen), { provider, requestId });
  const think = new ThinkTagSplitter();
  const prompted = toolMode === 'prompted' ? new PromptedToolCallStream(options.toolNames) : undefined;
  let nativeText = '';
  let calls = 0;

  function* text(pieces: Piece[]): Generator<StreamPart> {
    for (const piece of pieces) {
      if (piece.kind === 'reasoning') {
        yield { type: 'reasoning_delta', delta: piece.delta };
      } else if (toolMode === 'native') {
        nativeText += piece.delta;
      } else if (prompted) {
        const shown = prompted.push(piece.delta);
        if (shown) yield { type: 'text_delta', delta: shown };
      } else yield { type: 'text_delta', delta: piece.delta };
    }
  }

  function* emitCalls(found: PromptedToolCall[]): Generator<StreamPart> {
    for (const call of found) {
      const id = `call_${requestId}_${calls++}`;
      yield { type: 'tool_call_complete', toolCall: { id, name: call.name, args: call.args } };
    }
  }

  /** Held-back text and text-borne calls, at the end; false when the stream ended with an error. */
  function* flush(): Generator<StreamPart, boolean> {
    yield* text(think.finish());
    if (prompted) {
      const parsed = prompted.finish();
      if (parsed.text) yield { type: 'text_delta', delta: parsed.text };
      if (parsed.errors.length > 0) {
        const message = `The model tried to call a tool but wrote it in a form that cannot be read. ${parsed.errors[0]}`;
        yield { type: 'error', error: { code: 'parse_error', message, provider, retryable: false } };
        return false;
      }
      yield* emitCalls(parsed.calls);
    }
    if (toolMode === 'native' && calls === 0 && nativeText.trim() !== '') {
      // web-llm only converts calls on a "stop"; anything else (or a model that wrote prose) is read here.
      const parsed = parsePromptedToolCalls(nativeText, options.toolNames);
      yield* emitCalls(parsed.calls);
      const rest = parsed.text.trim();
      if (parsed.calls.length === 0 && rest !== '' && rest !== '[]')
        yield { type: 'text_delta', delta: rest };
    }
    return true;
  }

  try {
    for await (const part of parts) {
      switch (part.type) {
        case 'text_delta':
          yield* text(think.push(part.delta));
          break;
        case 'tool_call_complete':
          calls++;
          yield part;
          break;
        case 'finish': {
          if (!(yield* flush())) return;
          let finishReason = part.finishReason;
          // Hermes may answer "no call" with an empty list; prompted calls end a "stop".
          if (finishReason === 'tool_calls' && calls === 0) finishReason = 'stop';
          if (finishReason === 'stop' && calls > 0) finishReason = 'tool_calls';
          const perfStats = { ...perfStatsFromUsageExtra(seen.extra), ...options.perfExtras?.() };
          yield {
            ...part,
            finishReason,
            ...(Object.keys(perfStats).length > 0 && { perfStats }),
          };
          return;
        }
        default:
          yield part;
      }
    }
  } catch (error) {
    // web-llm could not read Hermes' list of calls: the tolerant parser may still can.
    if (toolMode !== 'native' || !isToolOutputError(error)) throw error;
    const parsed = parsePromptedToolCalls(nativeText, options.toolNames);
    if (parsed.calls.length === 0) throw error;
    yield* emitCalls(parsed.calls);
    yield { type: 'finish', finishReason: 'tool_calls' };
  }
}

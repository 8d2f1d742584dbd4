import { systemClock, type Clock } from '../../core/ids';
import {
  MetonaProviderError,
  type MetonaError,
  type MetonaRequest,
  type MetonaResponse,
  type MetonaStreamEvent,
  type MetonaTokenUsage,
  type MetonaToolCall,
} from '../../ir';
import { streamInterruptedError, toMetonaError, type AbortContext } from './errors';
import { withDeadline } from './http';
import { StreamAccumulator } from './stream-accumulator';
import type { StreamPart } from './stream-parts';

export interface StreamCall {
  request: MetonaRequest;
  /** The adapter's provider id, reported in errors and `meta.provider`. */
  provider: string;
  /** The configured model; the wire's own model name wins when it reports one. */
  model: string;
  onEvent: (event: MetonaStreamEvent) => void;
  signal?: AbortSignal;
  clock?: Clock;
  /**
   * Sends the request and returns the converted wire stream. HTTP failures
   * reject with `MetonaProviderError`; the abort context must reach fetch.
   * A converter may hand over the parts of one network read as one array: the
   * per-item cost of an async iterator (a promise and a result object, plus an
   * abort race) is then paid per read instead of per token.
   */
  open: (abort: AbortContext) => Promise<AsyncIterable<StreamPart | readonly StreamPart[]>>;
}

type Emittable =
  | Exclude<StreamPart, { type: 'finish' | 'tool_call_complete' | 'usage' }>
  | { type: 'tool_call_complete'; toolCall: MetonaToolCall }
  | { type: 'usage'; usage: MetonaTokenUsage }
  | { type: 'done' };

const isBatch = (value: StreamPart | readonly StreamPart[]): value is readonly StreamPart[] =>
  Array.isArray(value);

/**
 * The envelope written out per kind rather than spread: this runs once per
 * token, and a spread of a fresh object per event showed up in profiles.
 */
function stamp(
  payload: Emittable,
  requestId: string,
  sessionId: string,
  iteration: number,
  seq: number,
  timestamp: number,
): MetonaStreamEvent {
  switch (payload.type) {
    case 'text_delta':
    case 'reasoning_delta':
      return { type: payload.type, delta: payload.delta, requestId, sessionId, iteration, seq, timestamp };
    case 'tool_call_delta':
      return {
        type: payload.type,
        toolCallDelta: payload.toolCallDelta,
        requestId,
        sessionId,
        iteration,
        seq,
        timestamp,
      };
    case 'tool_call_complete':
      return {
        type: payload.type,
        toolCall: payload.toolCall,
        requestId,
        sessionId,
        iteration,
        seq,
        timestamp,
      };
    case 'usage':
      return { type: payload.type, usage: payload.usage, requestId, sessionId, iteration, seq, timestamp };
    case 'error':
      return { type: payload.type, error: payload.error, requestId, sessionId, iteration, seq, timestamp };
    default:
      return { type: payload.type, requestId, sessionId, iteration, seq, timestamp };
  }
}

/** Rejects once the call is aborted, so a stalled read cannot outlive a Stop. */
function abortSignal(abort: AbortContext): { promise: Promise<never>; dispose: () => void } {
  const signals = [abort.signal, abort.timeoutSignal].filter((s): s is AbortSignal => s !== undefined);
  let dispose = () => undefined as void;
  const promise = new Promise<never>((_, reject) => {
    const onAbort = () => reject(new DOMException('Aborted', 'AbortError'));
    if (signals.some((s) => s.aborted)) return onAbort();
    for (const s of signals) s.addEventListener('abort', onAbort, { once: true });
    dispose = () => signals.forEach((s) => s.removeEventListener('abort', onAbort));
  });
  promise.catch(() => undefined); // observed through race(); never an unhandled rejection
  return { promise, dispose };
}

/**
 * The one place that turns a provider's converted stream into IR events:
 * stamps the envelope (monotonic `seq` from 0), keeps `reasoning_delta` inside
 * `thinking_start`/`thinking_end`, emits `usage` just before `done`, and ends
 * with exactly one terminal event: `done`, or `error` (then rejects with
 * `MetonaProviderError`). A stream that ends without the provider's end marker
 * is an interrupted stream; an abort ends it at once as `user_aborted`.
 */
export async function runStream(call: StreamCall): Promise<MetonaResponse> {
  const clock = call.clock ?? systemClock;
  const startedAt = clock();
  const { meta } = call.request;
  const abort = withDeadline(call.signal, call.request.constraints?.timeoutMs);
  const aborted = abortSignal(abort);
  const accumulator = new StreamAccumulator();

  let seq = 0;
  let thinking = false;
  let usage: MetonaTokenUsage | undefined;
  let finish: Extract<StreamPart, { type: 'finish' }> | undefined;
  let failure: MetonaError | undefined;
  let opened = false;
  let iterator: AsyncIterator<StreamPart | readonly StreamPart[]> | undefined;

  const emit = (payload: Emittable) => {
    const event = stamp(payload, meta.requestId, meta.sessionId, meta.iteration, seq++, clock());
    accumulator.add(event);
    call.onEvent(event);
  };
  const openThinking = () => {
    if (thinking) return;
    thinking = true;
    emit({ type: 'thinking_start' });
  };
  const closeThinking = () => {
    if (!thinking) return;
    thinking = false;
    emit({ type: 'thinking_end' });
  };

  const isEnded = () => failure !== undefined || finish !== undefined;
  const handle = (part: StreamPart) => {
    switch (part.type) {
      case 'thinking_start':
        openThinking();
        break;
      case 'reasoning_delta':
        if (part.delta === '') break;
        openThinking();
        emit(part);
        break;
      case 'thinking_end':
        closeThinking();
        break;
      case 'text_delta':
        if (part.delta === '') break;
        closeThinking();
        emit(part);
        break;
      case 'tool_call_delta':
        closeThinking();
        emit(part);
        break;
      case 'tool_call_complete':
        closeThinking();
        emit({
          type: 'tool_call_complete',
          toolCall: { ...part.toolCall, iteration: meta.iteration, timestamp: clock() },
        });
        break;
      case 'usage':
        usage = part.usage; // the last report wins; emitted once, before done
        break;
      case 'error':
        failure = part.error;
        break;
      case 'finish':
        finish = part;
        break;
      default: {
        const unhandled: never = part;
        throw new Error(`Unknown stream part ${JSON.stringify(unhandled)}`);
      }
    }
  };

  try {
    const parts = await Promise.race([call.open(abort), aborted.promise]);
    opened = true;
    iterator = parts[Symbol.asyncIterator]();
    while (!failure && !finish) {
      const next = await Promise.race([iterator.next(), aborted.promise]);
      if (next.done) break;
      const value = next.value;
      if (isBatch(value)) {
        for (const part of value) {
          // A Stop pressed from inside onEvent ends the batch too, as it would a single part.
          if (abort.signal?.aborted || abort.timeoutSignal?.aborted)
            throw new DOMException('Aborted', 'AbortError');
          handle(part);
          if (isEnded()) break;
        }
      } else handle(value);
    }
  } catch (error) {
    const mapped = toMetonaError(error, call.provider, abort);
    failure =
      opened && mapped.code === 'network_error' ? streamInterruptedError(call.provider, error) : mapped;
  } finally {
    aborted.dispose();
    // Closes the body (and the connection) when we stop before its end.
    iterator?.return?.().catch(() => undefined);
  }

  closeThinking();
  if (failure || !finish) {
    // No error and no end marker: the wire stopped early.
    const error = failure ?? streamInterruptedError(call.provider);
    emit({ type: 'error', error });
    throw new MetonaProviderError(error);
  }
  if (usage) emit({ type: 'usage', usage });
  emit({ type: 'done' });
  const finishedAt = clock();
  const response = accumulator.toResponse(
    {
      requestId: meta.requestId,
      provider: call.provider,
      model: finish.model || call.model,
      latencyMs: Math.max(0, finishedAt - startedAt),
      timestamp: finishedAt,
      ...(finish.perfStats && { perfStats: finish.perfStats }),
    },
    finish.finishReason,
  );
  return call.request.params.responseFormat ? withStructuredOutput(response) : response;
}

/**
 * The standard's `structuredOutput`: the answer parsed, when a response format
 * was asked for and the text is JSON. A reply cut short (`length`) or with
 * prose around it keeps only `content`; the caller decides how tolerant to be.
 */
export function withStructuredOutput(response: MetonaResponse): MetonaResponse {
  const text = response.content.trim();
  if (text === '') return response;
  try {
    return { ...response, structuredOutput: JSON.parse(text) as unknown };
  } catch {
    return response;
  }
}

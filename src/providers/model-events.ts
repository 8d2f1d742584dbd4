import { toIsoUtc, type ErrorCode, type EventEnvelope } from '../contracts';
import { systemClock, type Clock } from '../core/ids';
import type {
  IMetonaProviderAdapter,
  MetonaError,
  MetonaErrorCode,
  MetonaFinishReason,
  MetonaRequest,
  MetonaResponse,
  MetonaStreamEvent,
} from '../ir';
import { STREAM_INTERRUPTED, toContractErrorCode, toMetonaError } from './shared/errors';

/**
 * The contract's ModelEvent stream (§8.2), projected from IR stream events:
 * the names and snake_case fields are the contract's, the envelope is §4.4's.
 */
export const MODEL_EVENT_NAMES = [
  'TextDelta',
  'ThinkingDelta',
  'ToolCallStart',
  'ToolCallDelta',
  'ToolCallEnd',
  'Usage',
  'Error',
  'Done',
] as const;
export type ModelEventName = (typeof MODEL_EVENT_NAMES)[number];

export type ModelStreamStatus = 'completed' | 'failed' | 'cancelled';

export interface ModelEventData {
  TextDelta: { delta: string };
  ThinkingDelta: { delta: string };
  ToolCallStart: { tool_call_id: string; name: string; index: number };
  /** One per call: the complete arguments, a JSON object's text. */
  ToolCallDelta: { tool_call_id: string; arguments_delta: string };
  ToolCallEnd: { tool_call_id: string; name: string; arguments: Record<string, unknown> };
  Usage: {
    input_tokens: number;
    output_tokens: number;
    total_tokens: number;
    reasoning_tokens?: number;
    cache_hit_tokens?: number;
    cache_miss_tokens?: number;
  };
  Error: {
    code: ErrorCode;
    message: string;
    retryable: boolean;
    metona_code: MetonaErrorCode;
    retry_after_ms?: number;
    provider?: string;
  };
  Done: {
    status: ModelStreamStatus;
    finish_reason?: MetonaFinishReason;
    provider?: string;
    model?: string;
    error_code?: ErrorCode;
  };
}

export type ModelEvent = {
  [E in ModelEventName]: EventEnvelope<ModelEventData[E], E>;
}[ModelEventName];
export type ModelEventOf<E extends ModelEventName> = Extract<ModelEvent, { event: E }>;

export interface ModelEventProjectorOptions {
  /** The resource the events belong to (a chat message, a job); `resource_id` of every envelope. */
  resourceId: string;
  /** The first sequence; continue from the last one when one resource spans several calls. */
  startSequence?: number;
  clock?: Clock;
}

export interface ModelCallOutcome {
  response?: MetonaResponse;
  error?: unknown;
}

/**
 * IR events in, ModelEvents out. Rules (§8.2): monotonic `sequence`; tool calls
 * surface once complete, as Start, one Delta with the whole arguments (a valid
 * JSON object, aggregated by `tool_call_id`), End; usage as
 * `input_tokens/output_tokens/total_tokens`; thinking only from real
 * `reasoning_delta`s; on failure `Error` then `Done`; exactly one `Done`,
 * emitted by `finish()` once the call has settled. Nothing after it.
 */
export class ModelEventProjector {
  readonly #resourceId: string;
  readonly #clock: Clock;
  #sequence: number;
  #toolIndex = 0;
  #sawOutput = false;
  #error: MetonaError | undefined;
  #terminated = false;

  constructor(options: ModelEventProjectorOptions) {
    this.#resourceId = options.resourceId;
    this.#sequence = options.startSequence ?? 1;
    this.#clock = options.clock ?? systemClock;
  }

  get terminated(): boolean {
    return this.#terminated;
  }

  /** The sequence the next event will get. */
  get nextSequence(): number {
    return this.#sequence;
  }

  push(event: MetonaStreamEvent): ModelEvent[] {
    if (this.#terminated || this.#error) return [];
    switch (event.type) {
      case 'text_delta':
        this.#sawOutput = true;
        return [this.#make('TextDelta', { delta: event.delta ?? '' })];
      case 'reasoning_delta':
        this.#sawOutput = true;
        return [this.#make('ThinkingDelta', { delta: event.delta ?? '' })];
      case 'tool_call_complete': {
        const call = event.toolCall;
        if (!call) return [];
        this.#sawOutput = true;
        const index = this.#toolIndex++;
        return [
          this.#make('ToolCallStart', { tool_call_id: call.id, name: call.name, index }),
          this.#make('ToolCallDelta', { tool_call_id: call.id, arguments_delta: JSON.stringify(call.args) }),
          this.#make('ToolCallEnd', { tool_call_id: call.id, name: call.name, arguments: call.args }),
        ];
      }
      case 'usage': {
        const usage = event.usage;
        if (!usage) return [];
        return [
          this.#make('Usage', {
            input_tokens: usage.inputTokens,
            output_tokens: usage.outputTokens,
            total_tokens: usage.totalTokens,
            ...(usage.reasoningTokens !== undefined && { reasoning_tokens: usage.reasoningTokens }),
            ...(usage.cacheHitTokens !== undefined && { cache_hit_tokens: usage.cacheHitTokens }),
            ...(usage.cacheMissTokens !== undefined && { cache_miss_tokens: usage.cacheMissTokens }),
          }),
        ];
      }
      case 'error':
        this.#error = event.error;
        return [];
      case 'thinking_start':
      case 'thinking_end':
      case 'tool_call_delta': // argument fragments carry no id in the IR: the call surfaces on completion
      case 'done':
        return [];
      default: {
        const unhandled: never = event.type;
        throw new Error(`Unknown stream event type ${String(unhandled)}`);
      }
    }
  }

  /** Ends the stream: `Done` (after `Error` on failure). Later calls return nothing. */
  finish(outcome: ModelCallOutcome = {}): ModelEvent[] {
    if (this.#terminated) return [];
    this.#terminated = true;
    const error =
      this.#error ?? (outcome.error !== undefined ? toMetonaError(outcome.error, 'unknown') : undefined);
    if (!error) {
      const response = outcome.response;
      return [
        this.#make('Done', {
          status: 'completed',
          ...(response && {
            finish_reason: response.finishReason,
            provider: response.meta.provider,
            model: response.meta.model,
          }),
        }),
      ];
    }
    if (error.code === 'user_aborted') return [this.#make('Done', { status: 'cancelled' })];
    const midStream = error.providerCode === STREAM_INTERRUPTED || this.#sawOutput;
    const code = toContractErrorCode(error.code, { midStream, providerCode: error.providerCode });
    return [
      this.#make('Error', {
        code,
        message: error.message,
        retryable: error.retryable,
        metona_code: error.code,
        ...(error.retryAfterMs !== undefined && { retry_after_ms: error.retryAfterMs }),
        ...(error.provider !== undefined && { provider: error.provider }),
      }),
      this.#make('Done', { status: 'failed', error_code: code }),
    ];
  }

  #make<E extends ModelEventName>(event: E, data: ModelEventData[E]): ModelEvent {
    const sequence = this.#sequence++;
    return {
      id: sequence,
      sequence,
      event,
      resource_id: this.#resourceId,
      data,
      timestamp: toIsoUtc(this.#clock()),
    } as ModelEvent;
  }
}

export interface StreamModelEventsOptions extends Omit<ModelEventProjectorOptions, 'resourceId'> {
  resourceId?: string;
  signal?: AbortSignal;
}

/**
 * Runs one streaming call and delivers its ModelEvents. Never rejects: a
 * failure is the `Error` + `Done` pair, and the outcome says how it ended.
 */
export async function streamModelEvents(
  adapter: Pick<IMetonaProviderAdapter, 'sendStream'>,
  request: MetonaRequest,
  onEvent: (event: ModelEvent) => void,
  options: StreamModelEventsOptions = {},
): Promise<{ status: ModelStreamStatus; response?: MetonaResponse; error?: MetonaError }> {
  const projector = new ModelEventProjector({
    ...options,
    resourceId: options.resourceId ?? request.meta.requestId,
  });
  const deliver = (events: ModelEvent[]) => events.forEach((event) => onEvent(event));
  try {
    const response = await adapter.sendStream(request, (event) => deliver(projector.push(event)), {
      signal: options.signal,
    });
    deliver(projector.finish({ response }));
    return { status: 'completed', response };
  } catch (thrown) {
    const error = toMetonaError(thrown, 'unknown', { signal: options.signal });
    deliver(projector.finish({ error }));
    return { status: error.code === 'user_aborted' ? 'cancelled' : 'failed', error };
  }
}

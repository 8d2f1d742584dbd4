import {
  MetonaProviderError,
  type IMetonaProviderAdapter,
  type MetonaCallOptions,
  type MetonaError,
  type MetonaModelInfo,
  type MetonaRequest,
  type MetonaResponse,
  type MetonaStreamEvent,
} from '../ir';
import { toMetonaError } from './shared/errors';
import { abortableSleep, type Sleep } from './shared/sleep';

/** One provider/model the router can send to. */
export interface RouteTarget {
  adapter: IMetonaProviderAdapter;
  /** For notifications and results; the adapter already knows which model it calls. */
  model: string;
}

export interface ProviderRef {
  provider: string;
  model: string;
}

/**
 * What the router tells the UI besides the IR stream (the standard's
 * `agent:providerSwitched`, and the project's discarded-attempt rule).
 */
export type RouterNotification =
  | ({ type: 'retrying'; attempt: number; delayMs: number; error: MetonaError } & ProviderRef)
  /** Output of this attempt was streamed and is void: clear it before the next attempt streams. */
  | ({ type: 'attempt_discarded'; attempt: number; error: MetonaError } & ProviderRef)
  | { type: 'provider_switched'; from: ProviderRef; to: ProviderRef; error: MetonaError };

export interface AttemptRecord extends ProviderRef {
  attempt: number;
  error?: MetonaError;
  discarded: boolean;
}

export interface RouteResult extends ProviderRef {
  response: MetonaResponse;
  attempts: AttemptRecord[];
}

export interface RouteOptions extends MetonaCallOptions {
  onNotification?: (notification: RouterNotification) => void;
}

export interface ProviderRouterConfig {
  primary: RouteTarget;
  /** The standard's llm.fallbackProvider/llm.fallbackModel; unset skips failover. */
  fallback?: RouteTarget;
  /** Retries per target after the first attempt (the standard: at most 3). */
  maxRetries?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** A Retry-After longer than this is not waited for: the router moves on. */
  maxRetryAfterMs?: number;
  sleep?: Sleep;
  random?: () => number;
}

const OUTPUT_EVENTS = new Set<MetonaStreamEvent['type']>([
  'text_delta',
  'reasoning_delta',
  'tool_call_delta',
  'tool_call_complete',
]);

/**
 * Drops what one provider put into the conversation for itself (DeepSeek's
 * `reasoning_content` of tool rounds): another provider cannot verify or use it.
 */
export function withoutProviderState(request: MetonaRequest): MetonaRequest {
  return {
    ...request,
    messages: request.messages.map((message) => {
      if (message.role !== 'assistant' || message.reasoningContent === undefined) return message;
      const { reasoningContent: _dropped, ...rest } = message;
      return rest;
    }),
  };
}

/** Errors a different provider cannot fix are not failed over. */
function canFailOver(error: MetonaError): boolean {
  return error.code !== 'user_aborted' && error.code !== 'content_filtered';
}

/**
 * The standard's failover policy: retry retryable errors up to 3 times
 * (Retry-After, else exponential backoff with jitter), then the configured
 * fallback, with a `provider_switched` notification; otherwise fail with the
 * last error. The IR stream it forwards keeps the adapter rules across
 * attempts: `seq` stays monotonic and only the last attempt's terminal event
 * is delivered. An attempt that fails after streaming output is announced as
 * `attempt_discarded` before anything else streams.
 */
export class ProviderRouter implements IMetonaProviderAdapter {
  readonly providerId: string;
  readonly supportedModels: string[];
  readonly #primary: RouteTarget;
  readonly #fallback: RouteTarget | undefined;
  readonly #maxRetries: number;
  readonly #baseDelayMs: number;
  readonly #maxDelayMs: number;
  readonly #maxRetryAfterMs: number;
  readonly #sleep: Sleep;
  readonly #random: () => number;

  constructor(config: ProviderRouterConfig) {
    this.#primary = config.primary;
    this.#fallback = config.fallback;
    this.providerId = config.primary.adapter.providerId;
    this.supportedModels = config.primary.adapter.supportedModels;
    this.#maxRetries = config.maxRetries ?? 3;
    this.#baseDelayMs = config.baseDelayMs ?? 500;
    this.#maxDelayMs = config.maxDelayMs ?? 8_000;
    this.#maxRetryAfterMs = config.maxRetryAfterMs ?? 60_000;
    this.#sleep = config.sleep ?? abortableSleep;
    this.#random = config.random ?? Math.random;
  }

  getContextWindow(model: string): number {
    return this.#primary.adapter.getContextWindow(model);
  }

  healthCheck(): Promise<boolean> {
    return this.#primary.adapter.healthCheck();
  }

  listModels(): Promise<MetonaModelInfo[]> {
    return this.#primary.adapter.listModels();
  }

  send(request: MetonaRequest, options?: RouteOptions): Promise<MetonaResponse> {
    return this.sendStream(request, () => undefined, options);
  }

  async sendStream(
    request: MetonaRequest,
    onEvent: (event: MetonaStreamEvent) => void,
    options?: RouteOptions,
  ): Promise<MetonaResponse> {
    return (await this.route(request, onEvent, options)).response;
  }

  /** Like `sendStream`, with who answered and every attempt made. */
  async route(
    request: MetonaRequest,
    onEvent: (event: MetonaStreamEvent) => void,
    options: RouteOptions = {},
  ): Promise<RouteResult> {
    const { signal, onNotification, onLoadProgress } = options;
    const notify = (notification: RouterNotification) => onNotification?.(notification);
    const targets = this.#fallback ? [this.#primary, this.#fallback] : [this.#primary];
    const primary = this.#ref(this.#primary);
    const attempts: AttemptRecord[] = [];
    let seq = 0;
    let lastError: MetonaError | undefined;
    let lastErrorEvent: MetonaStreamEvent | undefined;

    targets: for (const [targetIndex, target] of targets.entries()) {
      const ref = this.#ref(target);
      if (targetIndex > 0 && lastError)
        notify({ type: 'provider_switched', from: primary, to: ref, error: lastError });
      const sameProvider = target.adapter.providerId === this.#primary.adapter.providerId;
      const targetRequest = sameProvider ? request : withoutProviderState(request);

      for (let attempt = 1; ; attempt++) {
        let streamed = false;
        let errorEvent: MetonaStreamEvent | undefined;
        const record: AttemptRecord = { ...ref, attempt, discarded: false };
        attempts.push(record);
        try {
          const response = await target.adapter.sendStream(
            targetRequest,
            (event) => {
              // Held back: only the final attempt's error reaches the consumer.
              if (event.type === 'error') {
                errorEvent = event;
                return;
              }
              if (OUTPUT_EVENTS.has(event.type)) streamed = true;
              onEvent({ ...event, seq: seq++ });
            },
            { signal, ...(onLoadProgress && { onLoadProgress }) },
          );
          return { ...ref, model: response.meta.model || ref.model, response, attempts };
        } catch (thrown) {
          const error = toMetonaError(thrown, ref.provider, { signal });
          record.error = error;
          lastError = error;
          lastErrorEvent = errorEvent;
          if (error.code === 'user_aborted') break targets;
          const delayMs = this.#retryDelay(error, attempt);
          const retry = delayMs !== undefined;
          const failOver = !retry && targetIndex < targets.length - 1 && canFailOver(error);
          if (!retry && !failOver) break targets;
          if (streamed) {
            record.discarded = true;
            notify({ type: 'attempt_discarded', ...ref, attempt, error });
          }
          if (!retry) continue targets;
          notify({ type: 'retrying', ...ref, attempt, delayMs, error });
          try {
            await this.#sleep(delayMs, signal);
          } catch (sleepError) {
            lastError = toMetonaError(sleepError, ref.provider, { signal });
            lastErrorEvent = undefined;
            break targets;
          }
        }
      }
    }

    const error = lastError ?? {
      code: 'unknown' as const,
      message: 'No provider answered.',
      retryable: false,
    };
    const { meta } = request;
    onEvent({
      ...(lastErrorEvent ?? {
        requestId: meta.requestId,
        sessionId: meta.sessionId,
        iteration: meta.iteration,
      }),
      type: 'error',
      error,
      seq: seq++,
      timestamp: lastErrorEvent?.timestamp ?? Date.now(),
    } as MetonaStreamEvent);
    throw new MetonaProviderError(error);
  }

  /** The wait before the next attempt, or undefined when this error is not retried. */
  #retryDelay(error: MetonaError, attempt: number): number | undefined {
    if (!error.retryable || attempt > this.#maxRetries) return undefined;
    if (error.retryAfterMs !== undefined) {
      return error.retryAfterMs <= this.#maxRetryAfterMs ? error.retryAfterMs : undefined;
    }
    // Exponential backoff with "equal jitter": half fixed, half random.
    const ceiling = Math.min(this.#maxDelayMs, this.#baseDelayMs * 2 ** (attempt - 1));
    return Math.round(ceiling / 2 + this.#random() * (ceiling / 2));
  }

  #ref(target: RouteTarget): ProviderRef {
    return { provider: target.adapter.providerId, model: target.model };
  }
}

export function createProviderRouter(config: ProviderRouterConfig): ProviderRouter {
  return new ProviderRouter(config);
}

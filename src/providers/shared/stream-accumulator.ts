import type {
  MetonaError,
  MetonaFinishReason,
  MetonaResponse,
  MetonaResponseMeta,
  MetonaStreamEvent,
  MetonaThinking,
  MetonaTokenUsage,
  MetonaToolCall,
} from '../../ir';

const ZERO_USAGE: MetonaTokenUsage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };

/**
 * Folds IR stream events into the final `MetonaResponse`. The stream driver
 * uses it for `sendStream`'s result; a UI or the router can fold the same
 * events on their side of a worker boundary and get the same answer.
 */
export class StreamAccumulator {
  #content = '';
  #reasoning = '';
  readonly #toolCalls: MetonaToolCall[] = [];
  #usage: MetonaTokenUsage | undefined;
  #error: MetonaError | undefined;
  #done = false;
  #thinkingStartedAt: number | undefined;
  #thinkingMs = 0;
  #thinkingOpen = false;

  add(event: MetonaStreamEvent): void {
    switch (event.type) {
      case 'text_delta':
        this.#content += event.delta ?? '';
        break;
      case 'reasoning_delta':
        this.#reasoning += event.delta ?? '';
        break;
      case 'thinking_start':
        this.#thinkingOpen = true;
        this.#thinkingStartedAt = event.timestamp;
        break;
      case 'thinking_end':
        if (this.#thinkingStartedAt !== undefined)
          this.#thinkingMs += event.timestamp - this.#thinkingStartedAt;
        this.#thinkingStartedAt = undefined;
        this.#thinkingOpen = false;
        break;
      case 'tool_call_complete':
        if (event.toolCall) this.#toolCalls.push(event.toolCall);
        break;
      case 'usage':
        this.#usage = event.usage;
        break;
      case 'error':
        this.#error = event.error;
        break;
      case 'done':
        this.#done = true;
        break;
      case 'tool_call_delta':
        break; // the complete call arrives as tool_call_complete
      default: {
        const unhandled: never = event.type;
        throw new Error(`Unknown stream event type ${String(unhandled)}`);
      }
    }
  }

  get content(): string {
    return this.#content;
  }

  get reasoningContent(): string {
    return this.#reasoning;
  }

  get toolCalls(): readonly MetonaToolCall[] {
    return this.#toolCalls;
  }

  get usage(): MetonaTokenUsage | undefined {
    return this.#usage;
  }

  get error(): MetonaError | undefined {
    return this.#error;
  }

  /** Ended with `done` or `error`. */
  get finished(): boolean {
    return this.#done || this.#error !== undefined;
  }

  /** Something a user saw streamed: text, reasoning or a tool call. */
  get hasOutput(): boolean {
    return this.#content !== '' || this.#reasoning !== '' || this.#toolCalls.length > 0;
  }

  /** The standard's `MetonaThinking` for a collapsible "thought for N s" view. */
  get thinking(): MetonaThinking | undefined {
    if (this.#reasoning === '' && !this.#thinkingOpen) return undefined;
    return {
      content: this.#reasoning,
      status: this.#thinkingOpen ? 'thinking' : 'complete',
      durationMs: this.#thinkingMs,
      tokensUsed: this.#usage?.reasoningTokens ?? 0,
    };
  }

  /** Without a finish reason from the wire: an error, tool calls, or a natural stop. */
  toResponse(meta: MetonaResponseMeta, finishReason?: MetonaFinishReason): MetonaResponse {
    const reason: MetonaFinishReason =
      this.#error !== undefined
        ? 'error'
        : (finishReason ?? (this.#toolCalls.length > 0 ? 'tool_calls' : 'stop'));
    return {
      meta,
      content: this.#content,
      ...(this.#reasoning !== '' && { reasoningContent: this.#reasoning }),
      ...(this.#toolCalls.length > 0 && { toolCalls: [...this.#toolCalls] }),
      usage: this.#usage ?? ZERO_USAGE,
      finishReason: reason,
      ...(this.#error !== undefined && { error: this.#error }),
    };
  }
}

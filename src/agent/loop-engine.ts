import { isAppError, type ErrorCode } from '../contracts';
import type { EventLog } from '../core/event-log';
import { newId, systemClock, type Clock } from '../core/ids';
import type {
  IMetonaProviderAdapter,
  MetonaErrorCode,
  MetonaFinishReason,
  MetonaGenerationParams,
  MetonaMessage,
  MetonaRequest,
  MetonaResponse,
  MetonaSystemPrompt,
  MetonaToolCall,
} from '../ir';
import type { RouteOptions, RouterNotification } from '../providers/router';
import { toContractErrorCode, toMetonaError } from '../providers/shared/errors';
import { toolArgumentsError, type ToolArgumentsError } from '../providers/shared/tool-call-assembler';
import type {
  AgentConfigSnapshot,
  AgentEventData,
  AgentEventName,
  ModelCallPurpose,
  RunFailureReason,
  TokenUsageData,
} from './agent-events';
import { ContextBuilder, type ContextInput } from './context-builder';
import { type MemoryStore } from './memory';
import { MEMORY_BUDGET_SHARE, recallWithinBudget } from './memory-extract';
import { PermissionGate } from './permissions';
import type { SecretRedactor } from './redaction';
import { estimateRequestTokens, estimateTextTokens } from './token-estimate';
import type { ToolExecution, ToolRegistry, ToolStatus } from './tool-registry';
import { TraceRecorder, addUsage, type ArtifactStore } from './trace';

export const AGENT_VERSION = '0.1.0';
export const DEFAULT_MAX_STEPS = 10;

/** The ReAct states; `done`, `failed` and `cancelled` are terminal. */
export type AgentState =
  'idle' | 'compressing' | 'thinking' | 'acting' | 'observing' | 'done' | 'failed' | 'cancelled';

const TRANSITIONS: Record<AgentState, readonly AgentState[]> = {
  idle: ['thinking', 'compressing', 'failed', 'cancelled'],
  compressing: ['thinking', 'failed', 'cancelled'],
  thinking: ['acting', 'done', 'failed', 'cancelled'],
  acting: ['observing', 'failed', 'cancelled'],
  observing: ['thinking', 'compressing', 'failed', 'cancelled'],
  done: [],
  failed: [],
  cancelled: [],
};

export interface AgentLoopDeps {
  registry: ToolRegistry;
  /** Run events go here, `resource_id = run_id`. */
  events: EventLog;
  /** Absent: a gate with no prompt, so tools that need permission are denied. */
  permissions?: PermissionGate;
  memory?: MemoryStore;
  artifacts?: ArtifactStore;
  redactor?: SecretRedactor;
  clock?: Clock;
  newId?: (prefix: string) => string;
  agentVersion?: string;
}

export interface AgentRunOptions {
  runId?: string;
  sessionId: string;
  input: string;
  /** Earlier turns of the conversation. */
  history?: MetonaMessage[];
  adapter: IMetonaProviderAdapter;
  model: string;
  /** The provider's fallback, for the config snapshot (the adapter routes to it). */
  fallback?: { provider_id: string; model: string };
  /** Model calls allowed (contract §9.5 `max_steps`); past it the run fails with `max_iterations`. */
  maxSteps?: number;
  /** Tokens the whole run may use, input and output of every model call (§9.5 `token_budget`). */
  tokenBudget?: number;
  /** Deadline for the whole run; each request also carries what is left as `constraints.timeoutMs`. */
  timeoutMs?: number;
  allowedTools?: string[];
  /** Tool calls executed per step; extra calls are reported to the model, not run. */
  maxToolCalls?: number;
  params?: MetonaGenerationParams;
  systemPrompt?: Partial<Omit<MetonaSystemPrompt, 'dynamicReminders'>>;
  /** Overrides the adapter's window (tests, or a user limit). */
  contextWindow?: number;
  keptRounds?: number;
  summaryMaxTokens?: number;
  memoryLimit?: number;
  /** Saved in the config snapshot (benchmark case id, skill id…). */
  metadata?: Record<string, unknown>;
  signal?: AbortSignal;
  onStateChange?: (state: AgentState, step: number) => void;
  /**
   * Runs with the final result before the terminal event is written, so that whoever sees
   * RunCompleted, RunFailed or RunCancelled reads the final run record. A throw here is logged
   * and does not hold back the terminal event; the returned result is the same either way.
   */
  beforeTerminal?: (result: Readonly<AgentRunResult>) => Promise<void>;
}

export interface AgentRunResult {
  run_id: string;
  status: 'completed' | 'failed' | 'cancelled';
  output?: string;
  error?: { code: ErrorCode; message: string; reason: RunFailureReason };
  steps: number;
  /** The conversation after the run, for the next turn (compressed if it was). */
  messages: MetonaMessage[];
  token_usage: TokenUsageData;
  tool_calls: number;
  invalid_tool_calls: number;
  /** The sequence of the run's terminal event. */
  last_sequence: number;
}

/** Ends the loop: a failure with its reason, or a cancellation. */
class RunStop extends Error {
  readonly kind: 'failed' | 'cancelled';
  readonly reason: RunFailureReason;
  readonly code: ErrorCode;
  readonly metonaCode: MetonaErrorCode | undefined;

  constructor(
    kind: 'failed' | 'cancelled',
    details: { reason?: RunFailureReason; code?: ErrorCode; message: string; metonaCode?: MetonaErrorCode },
  ) {
    super(details.message);
    this.kind = kind;
    this.reason = details.reason ?? 'internal';
    this.code = details.code ?? (kind === 'cancelled' ? 'JOB_CANCELLED' : 'JOB_FAILED');
    this.metonaCode = details.metonaCode;
  }
}

/** The model a routing adapter sends to now (it changes after a failover). */
function activeModel(adapter: IMetonaProviderAdapter): string | undefined {
  const value = (adapter as { activeModel?: unknown }).activeModel;
  return typeof value === 'string' ? value : undefined;
}

const ZERO_USAGE: TokenUsageData = { input_tokens: 0, output_tokens: 0, total_tokens: 0 };

/**
 * The ReAct loop on the Metona IR. Each iteration builds one MetonaRequest
 * (compressing the context first when it passes 0.8 of the window), streams
 * the model's answer, runs the tool calls it asks for through the registry
 * (validation, permissions, timeouts) and appends `role: 'tool'` messages,
 * until the model answers without tools. Every step is a trace event.
 */
export class AgentLoop {
  readonly #deps: AgentLoopDeps;

  constructor(deps: AgentLoopDeps) {
    this.#deps = deps;
  }

  run(options: AgentRunOptions): Promise<AgentRunResult> {
    return new AgentRun(this.#deps, options).execute();
  }
}

class AgentRun {
  readonly #deps: AgentLoopDeps;
  readonly #options: AgentRunOptions;
  readonly #clock: Clock;
  readonly #newId: (prefix: string) => string;
  readonly #runId: string;
  readonly #trace: TraceRecorder;
  readonly #context: ContextBuilder;
  readonly #permissions: PermissionGate;
  readonly #maxSteps: number;
  readonly #allowed: ReadonlySet<string> | undefined;
  readonly #controller = new AbortController();
  #abortReason: 'user' | 'timeout' | undefined;
  #deadlineAt: number | undefined;
  #state: AgentState = 'idle';
  #step = 0;
  #usage: TokenUsageData = ZERO_USAGE;
  #toolCalls = 0;
  #invalidToolCalls = 0;
  #messages: MetonaMessage[] = [];
  #startedAt = 0;

  constructor(deps: AgentLoopDeps, options: AgentRunOptions) {
    this.#deps = deps;
    this.#options = options;
    this.#clock = deps.clock ?? systemClock;
    this.#newId = deps.newId ?? newId;
    this.#runId = options.runId ?? this.#newId('run');
    this.#trace = new TraceRecorder({
      log: deps.events,
      runId: this.#runId,
      redactor: deps.redactor,
      artifacts: deps.artifacts,
    });
    this.#context = new ContextBuilder({
      contextWindow: options.contextWindow ?? options.adapter.getContextWindow(options.model),
      systemPrompt: options.systemPrompt,
      keptRounds: options.keptRounds,
      summaryMaxTokens: options.summaryMaxTokens,
      newId: this.#newId,
    });
    this.#permissions = deps.permissions ?? new PermissionGate({ newId: this.#newId, clock: this.#clock });
    this.#maxSteps = Math.max(1, options.maxSteps ?? DEFAULT_MAX_STEPS);
    this.#allowed = options.allowedTools ? new Set(options.allowedTools) : undefined;
  }

  async execute(): Promise<AgentRunResult> {
    const { signal, timeoutMs } = this.#options;
    const onAbort = () => this.#abort('user');
    signal?.addEventListener('abort', onAbort, { once: true });
    let timer: ReturnType<typeof setTimeout> | undefined;
    this.#startedAt = this.#clock();
    if (timeoutMs !== undefined) {
      this.#deadlineAt = this.#startedAt + timeoutMs;
      timer = setTimeout(() => this.#abort('timeout'), timeoutMs);
    }
    try {
      if (signal?.aborted) this.#abort('user');
      await this.#trace.emit('RunStarted', {
        run_id: this.#runId,
        session_id: this.#options.sessionId,
        input: this.#options.input,
        config_snapshot: this.#configSnapshot(),
      });
      const output = await this.#loop();
      return await this.#finish('completed', output);
    } catch (thrown) {
      return await this.#finish(thrown instanceof RunStop ? thrown.kind : 'failed', undefined, thrown);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  // -------------------------------------------------------------------------
  // The loop
  // -------------------------------------------------------------------------

  async #loop(): Promise<{ content: string; finishReason: MetonaFinishReason }> {
    const options = this.#options;
    // As many relevant memories as fit their share of the window, not a fixed count.
    const memories = this.#deps.memory
      ? await recallWithinBudget(this.#deps.memory, options.input, {
          now: this.#clock(),
          sessionId: options.sessionId,
          budgetTokens: Math.floor(this.#context.contextWindow * MEMORY_BUDGET_SHARE),
          ...(options.memoryLimit !== undefined && { limit: options.memoryLimit }),
        })
      : [];
    this.#messages = [
      ...(options.history ?? []),
      { role: 'user', content: options.input, timestamp: this.#clock() },
    ];
    const tools = this.#deps.registry.definitions(this.#allowed);

    for (;;) {
      this.#throwIfStopped();
      this.#step += 1;
      const step = this.#step;
      const contextInput = (): ContextInput => ({
        sessionId: options.sessionId,
        userInput: options.input,
        iteration: step,
        history: this.#messages,
        memories,
        tools,
        reminders: this.#reminders(step),
      });

      let context = this.#context.build(contextInput());
      if (context.needsCompression) {
        this.#setState('compressing');
        const compression = await this.#context.compress(
          contextInput(),
          (request) => this.#summarize(request),
          { requestId: this.#newId('request'), timestamp: this.#clock(), agentVersion: this.#agentVersion },
        );
        this.#messages = compression.history;
        context = this.#context.build(contextInput());
        if (context.needsCompression) {
          throw new RunStop('failed', {
            reason: 'context_length',
            code: 'MODEL_CONTEXT_LENGTH_EXCEEDED',
            metonaCode: 'context_length_exceeded',
            message: 'The conversation does not fit the model’s context window even after compression.',
          });
        }
      }

      this.#setState('thinking');
      const request = this.#context.toRequest(context, {
        requestId: this.#newId('request'),
        timestamp: this.#clock(),
        agentVersion: this.#agentVersion,
        params: this.#params(context.estimatedTokens),
        constraints: this.#constraints(),
      });
      const { response, modelCallId } = await this.#callModel(request, 'step');
      const calls = response.toolCalls ?? [];
      this.#messages.push({
        role: 'assistant',
        content: response.content,
        ...(response.reasoningContent && { reasoningContent: response.reasoningContent }),
        ...(calls.length > 0 && { toolCalls: calls }),
        timestamp: this.#clock(),
        iteration: step,
      });
      if (calls.length === 0) {
        this.#setState('done');
        return { content: response.content, finishReason: response.finishReason };
      }
      if (step >= this.#maxSteps) {
        // The last allowed call still asked for tools: the trace says they were not run, and why.
        await this.#recordUnrun(calls, step, modelCallId);
        throw new RunStop('failed', {
          reason: 'max_iterations',
          metonaCode: 'max_iterations',
          code: toContractErrorCode('max_iterations'),
          message: `The agent used all ${this.#maxSteps} steps without reaching an answer.`,
        });
      }
      this.#throwIfOverBudget(0);

      this.#setState('acting');
      await this.#runTools(calls, step, modelCallId);
      this.#setState('observing');
    }
  }

  /** Tool calls of the step limit's last model call: in the trace as not run, never executed. */
  async #recordUnrun(calls: MetonaToolCall[], step: number, modelCallId: string): Promise<void> {
    const message = `Not run: the run reached its limit of ${this.#maxSteps} steps.`;
    for (const call of calls) {
      await this.#emitToolCall(call, step, modelCallId);
      const { result } = this.#skipped(call, message, 'step_limit');
      await this.#trace.emit('ToolResult', {
        tool_call_id: call.id,
        name: call.name,
        step,
        parent_model_call_id: modelCallId,
        status: 'step_limit',
        success: false,
        summary: message,
        error: message,
        duration_ms: 0,
      });
      this.#messages.push({
        role: 'tool',
        content: '',
        toolResult: result,
        timestamp: this.#clock(),
        iteration: step,
      });
    }
  }

  async #emitToolCall(call: MetonaToolCall, step: number, modelCallId: string): Promise<void> {
    const fault = toolArgumentsError(call);
    await this.#trace.emit('ToolCall', {
      tool_call_id: call.id,
      name: call.name,
      step,
      parent_model_call_id: modelCallId,
      arguments: call.args,
      ...(fault && { arguments_text: fault.text }),
    });
  }

  /** A call whose arguments the wire could not read as JSON: the model is told why, and may send it again. */
  #unreadable(call: MetonaToolCall, fault: ToolArgumentsError): ToolExecution {
    const message =
      `The arguments of ${call.name} were not valid JSON (${fault.reason}). You sent: ${fault.text}. ` +
      'The call was not executed; send the arguments again as one JSON object.';
    const skipped = this.#skipped(call, message, 'invalid_arguments');
    return { ...skipped, errorCode: 'VALIDATION_FAILED' };
  }

  async #runTools(calls: MetonaToolCall[], step: number, modelCallId: string): Promise<void> {
    const limit = this.#options.maxToolCalls;
    for (const [index, call] of calls.entries()) {
      this.#throwIfStopped();
      await this.#emitToolCall(call, step, modelCallId);
      const fault = toolArgumentsError(call);
      const execution =
        limit !== undefined && index >= limit
          ? this.#skipped(call, `Only ${limit} tool call(s) may run per step; this call was not executed.`)
          : fault
            ? this.#unreadable(call, fault)
            : await this.#deps.registry.execute(call, {
                signal: this.#controller.signal,
                runId: this.#runId,
                sessionId: this.#options.sessionId,
                step,
                ...(this.#allowed && { allowedTools: this.#allowed }),
                authorize: (tool, args) =>
                  this.#permissions.authorize({
                    runId: this.#runId,
                    tool,
                    toolCallId: call.id,
                    args,
                    signal: this.#controller.signal,
                    emit: (event, data) => this.#trace.emit(event, data),
                  }),
              });
      this.#toolCalls += 1;
      if (execution.status === 'invalid_arguments' || execution.status === 'unknown_tool') {
        this.#invalidToolCalls += 1;
      }
      const { result } = execution;
      await this.#trace.emit('ToolResult', {
        tool_call_id: call.id,
        name: call.name,
        step,
        parent_model_call_id: modelCallId,
        status: execution.status,
        success: result.success,
        summary: result.summary ?? '',
        ...(result.result !== undefined && { result: result.result }),
        ...(result.error !== undefined && { error: result.error }),
        ...(execution.errorCode !== undefined && { error_code: execution.errorCode }),
        duration_ms: result.durationMs,
      });
      for (const citation of execution.citations) {
        await this.#trace.emit('Citation', { tool_call_id: call.id, ...citation });
      }
      // The model reads the code too: it names the failure in the words a user sees in the app.
      const told =
        execution.errorCode !== undefined && result.error !== undefined
          ? { ...result, error: `${result.error} (error code ${execution.errorCode})` }
          : result;
      this.#messages.push({
        role: 'tool',
        content: '',
        toolResult: told,
        timestamp: this.#clock(),
        iteration: step,
      });
      this.#throwIfStopped();
    }
  }

  #skipped(call: MetonaToolCall, message: string, status: ToolStatus = 'not_allowed'): ToolExecution {
    const now = this.#clock();
    return {
      status,
      citations: [],
      result: {
        toolCallId: call.id,
        toolName: call.name,
        result: undefined,
        summary: message,
        success: false,
        error: message,
        durationMs: 0,
        timestamp: now,
      },
    };
  }

  // -------------------------------------------------------------------------
  // Model calls
  // -------------------------------------------------------------------------

  async #callModel(
    request: MetonaRequest,
    purpose: ModelCallPurpose,
  ): Promise<{ response: MetonaResponse; modelCallId: string }> {
    const { adapter } = this.#options;
    const model = activeModel(adapter) ?? this.#options.model;
    const modelCallId = this.#newId('model_call');
    const step = request.meta.iteration;
    await this.#trace.emit('ModelCallStarted', {
      model_call_id: modelCallId,
      provider_id: adapter.providerId,
      model,
      step,
      purpose,
    });
    const started = this.#clock();
    const post = <E extends AgentEventName>(event: E, data: AgentEventData[E]) =>
      void this.#trace.emit(event, data).catch(() => undefined); // surfaced by flush()
    // A router (retries, fallback) says when it switches or voids streamed text.
    const onNotification = (notification: RouterNotification) => {
      if (notification.type === 'provider_switched') {
        post('ProviderSwitched', {
          model_call_id: modelCallId,
          from: { provider_id: notification.from.provider, model: notification.from.model },
          to: { provider_id: notification.to.provider, model: notification.to.model },
          error_code: toContractErrorCode(notification.error.code, {
            providerCode: notification.error.providerCode,
          }),
        });
      } else if (notification.type === 'attempt_discarded') {
        post('AttemptDiscarded', {
          model_call_id: modelCallId,
          provider_id: notification.provider,
          model: notification.model,
          attempt: notification.attempt,
          error_code: toContractErrorCode(notification.error.code, { midStream: true }),
        });
      }
    };
    const callOptions: RouteOptions = { signal: this.#controller.signal, onNotification };
    let response: MetonaResponse;
    try {
      response = await adapter.sendStream(
        request,
        (event) => {
          if (purpose !== 'step' || !event.delta) return;
          if (event.type === 'text_delta')
            post('TextDelta', { model_call_id: modelCallId, step, delta: event.delta });
          if (event.type === 'reasoning_delta') {
            post('ThinkingDelta', { model_call_id: modelCallId, step, delta: event.delta });
          }
        },
        callOptions,
      );
    } catch (thrown) {
      await this.#trace.flush();
      const error = toMetonaError(thrown, adapter.providerId, { signal: this.#controller.signal });
      const timedOut = this.#abortReason === 'timeout' || this.#pastDeadline();
      const metonaCode: MetonaErrorCode = timedOut ? 'timeout' : error.code;
      await this.#trace.emit('ModelCallFailed', {
        model_call_id: modelCallId,
        duration_ms: Math.max(0, this.#clock() - started),
        code: toContractErrorCode(metonaCode, { providerCode: error.providerCode }),
        message: error.message,
        metona_code: metonaCode,
        retryable: error.retryable,
      });
      this.#throwIfStopped();
      if (timedOut) throw this.#timeoutStop();
      throw new RunStop('failed', {
        reason: 'model_error',
        code: toContractErrorCode(error.code, {
          midStream: error.providerCode === 'stream_interrupted',
          providerCode: error.providerCode,
        }),
        metonaCode: error.code,
        message: error.message,
      });
    }
    await this.#trace.flush();

    const reported = response.usage;
    const estimated = reported.totalTokens === 0;
    const usage: TokenUsageData = estimated
      ? this.#estimateUsage(request, response)
      : {
          input_tokens: reported.inputTokens,
          output_tokens: reported.outputTokens,
          total_tokens: reported.totalTokens,
        };
    this.#usage = addUsage(this.#usage, usage);
    await this.#trace.emit('ModelCallCompleted', {
      model_call_id: modelCallId,
      provider_id: response.meta.provider || adapter.providerId,
      model: response.meta.model || model,
      duration_ms: Math.max(0, this.#clock() - started),
      finish_reason: response.finishReason,
      input_tokens: usage.input_tokens,
      output_tokens: usage.output_tokens,
      tool_calls: response.toolCalls?.length ?? 0,
    });
    await this.#trace.emit('Usage', {
      model_call_id: modelCallId,
      ...usage,
      estimated,
      run_total_tokens: this.#usage.total_tokens,
    });
    return { response, modelCallId };
  }

  /** Compression's model call. A provider failure falls back to the mechanical summary. */
  async #summarize(request: MetonaRequest): Promise<string> {
    try {
      return (await this.#callModel(request, 'compression')).response.content;
    } catch (error) {
      if (error instanceof RunStop && error.reason === 'model_error') {
        return '(A summary could not be written; older rounds were dropped.)';
      }
      throw error;
    }
  }

  #estimateUsage(request: MetonaRequest, response: MetonaResponse): TokenUsageData {
    const input = estimateRequestTokens(request);
    const output = estimateTextTokens(
      response.content + (response.reasoningContent ?? '') + JSON.stringify(response.toolCalls ?? []),
    );
    return { input_tokens: input, output_tokens: output, total_tokens: input + output };
  }

  // -------------------------------------------------------------------------
  // Limits, state, ending
  // -------------------------------------------------------------------------

  get #agentVersion(): string {
    return this.#deps.agentVersion ?? AGENT_VERSION;
  }

  #params(estimatedInput: number): MetonaGenerationParams {
    const params: MetonaGenerationParams = { temperature: 0, stream: true, ...this.#options.params };
    const budget = this.#options.tokenBudget;
    if (budget === undefined) return params;
    this.#throwIfOverBudget(estimatedInput);
    const left = budget - this.#usage.total_tokens - estimatedInput;
    return { ...params, maxTokens: Math.max(1, Math.min(params.maxTokens ?? left, left)) };
  }

  #constraints(): MetonaRequest['constraints'] {
    const { maxToolCalls } = this.#options;
    const left = this.#deadlineAt === undefined ? undefined : Math.ceil(this.#deadlineAt - this.#clock());
    const constraints = {
      ...(this.#allowed && { allowedTools: [...this.#allowed] }),
      ...(maxToolCalls !== undefined && { maxToolCalls }),
      ...(left !== undefined && { timeoutMs: Math.max(1, left) }),
    };
    return Object.keys(constraints).length > 0 ? constraints : undefined;
  }

  #throwIfOverBudget(nextInput: number): void {
    const budget = this.#options.tokenBudget;
    if (budget === undefined) return;
    if (this.#usage.total_tokens + nextInput >= budget) {
      throw new RunStop('failed', {
        reason: 'token_budget',
        message: `The run reached its token budget of ${budget} tokens (${this.#usage.total_tokens} used).`,
      });
    }
  }

  #reminders(step: number): string[] {
    const lines = [`Step ${step} of at most ${this.#maxSteps}.`];
    if (step >= this.#maxSteps) lines.push('This is the last step: answer now, without calling tools.');
    const budget = this.#options.tokenBudget;
    if (budget !== undefined) lines.push(`Token budget left: about ${budget - this.#usage.total_tokens}.`);
    return lines;
  }

  #abort(reason: 'user' | 'timeout'): void {
    if (this.#controller.signal.aborted) return;
    this.#abortReason = reason;
    this.#controller.abort(
      new DOMException(reason === 'user' ? 'The run was cancelled' : 'The run timed out', 'AbortError'),
    );
  }

  #pastDeadline(): boolean {
    return this.#deadlineAt !== undefined && this.#clock() >= this.#deadlineAt;
  }

  #timeoutStop(): RunStop {
    return new RunStop('failed', {
      reason: 'timeout',
      code: 'JOB_FAILED',
      metonaCode: 'timeout',
      message: `The run did not finish within ${this.#options.timeoutMs} ms.`,
    });
  }

  #throwIfStopped(): void {
    if (this.#abortReason === 'user') throw new RunStop('cancelled', { message: 'The run was cancelled.' });
    if (this.#abortReason === 'timeout') throw this.#timeoutStop();
  }

  #setState(next: AgentState): void {
    if (next === this.#state) return;
    if (!TRANSITIONS[this.#state].includes(next)) {
      throw new Error(`agent state ${this.#state} cannot move to ${next}`);
    }
    this.#state = next;
    this.#options.onStateChange?.(next, this.#step);
  }

  async #finish(
    status: AgentRunResult['status'],
    output?: { content: string; finishReason: MetonaFinishReason },
    thrown?: unknown,
  ): Promise<AgentRunResult> {
    const base = {
      steps: this.#step,
      duration_ms: Math.max(0, this.#clock() - this.#startedAt),
      token_usage: this.#usage,
    };
    const result: AgentRunResult = {
      run_id: this.#runId,
      status,
      steps: this.#step,
      messages: this.#messages,
      token_usage: this.#usage,
      tool_calls: this.#toolCalls,
      invalid_tool_calls: this.#invalidToolCalls,
      last_sequence: 0,
    };
    try {
      await this.#trace.flush();
    } catch (error) {
      thrown ??= error;
      status = 'failed';
      result.status = 'failed';
    }
    try {
      let terminal: () => Promise<unknown>;
      if (status === 'completed' && output) {
        this.#setState('done');
        result.output = output.content;
        terminal = () =>
          this.#trace.emit('RunCompleted', {
            output: output.content,
            finish_reason: output.finishReason,
            tool_calls: this.#toolCalls,
            ...base,
          });
      } else if (status === 'cancelled') {
        this.#forceState('cancelled');
        terminal = () => this.#trace.emit('RunCancelled', { reason: 'user', ...base });
      } else {
        this.#forceState('failed');
        const stop =
          thrown instanceof RunStop
            ? thrown
            : new RunStop('failed', {
                reason: 'internal',
                code: isAppError(thrown) ? thrown.code : 'INTERNAL_ERROR',
                message: isAppError(thrown)
                  ? thrown.message
                  : 'The agent stopped because of an internal error.',
              });
        result.error = { code: stop.code, message: stop.message, reason: stop.reason };
        terminal = () =>
          this.#trace.emit('RunFailed', {
            code: stop.code,
            message: stop.message,
            reason: stop.reason,
            ...(stop.metonaCode !== undefined && { metona_code: stop.metonaCode }),
            ...base,
          });
      }
      await this.#beforeTerminal(result);
      await terminal();
    } catch (error) {
      // The trace itself could not be written: the result still tells the caller.
      if (!(thrown instanceof RunStop)) console.error('agent trace write failed', error);
      result.status = 'failed';
      result.error ??= {
        code: 'STORAGE_ERROR',
        message: 'The run trace could not be saved.',
        reason: 'internal',
      };
    }
    result.last_sequence = this.#trace.lastSequence;
    return result;
  }

  async #beforeTerminal(result: AgentRunResult): Promise<void> {
    try {
      await this.#options.beforeTerminal?.(result);
    } catch (error) {
      console.error('agent run record write failed', error);
    }
  }

  #forceState(next: 'failed' | 'cancelled'): void {
    if (this.#state === 'done' || this.#state === 'failed' || this.#state === 'cancelled') return;
    this.#state = next;
    this.#options.onStateChange?.(next, this.#step);
  }

  #configSnapshot(): AgentConfigSnapshot {
    const options = this.#options;
    const tools = this.#deps.registry.names().flatMap((name) => {
      const tool = this.#deps.registry.get(name);
      if (!tool || (this.#allowed && !this.#allowed.has(name))) return [];
      return [
        {
          name,
          risk_level: tool.definition.riskLevel,
          requires_permission: tool.definition.requiresPermission,
          permission: tool.permission,
        },
      ];
    });
    return {
      provider_id: options.adapter.providerId,
      model: options.model,
      fallback: options.fallback ?? null,
      agent_version: this.#agentVersion,
      max_steps: this.#maxSteps,
      token_budget: options.tokenBudget ?? null,
      timeout_ms: options.timeoutMs ?? null,
      allowed_tools: options.allowedTools ?? null,
      max_tool_calls: options.maxToolCalls ?? null,
      context_window: this.#context.contextWindow,
      kept_rounds: this.#context.keptRounds,
      tools,
      params: { temperature: 0, stream: true, ...options.params },
      metadata: options.metadata ?? {},
    };
  }
}

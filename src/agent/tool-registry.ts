import type { z } from 'zod';
import { isAppError, type ErrorCode, type PreviewAction } from '../contracts';
import { systemClock, type Clock } from '../core/ids';
import {
  metonaToolDefSchema,
  type MetonaRiskLevel,
  type MetonaToolCall,
  type MetonaToolCategory,
  type MetonaToolDef,
  type MetonaToolResult,
} from '../ir';
import { toJsonSchema, toMetonaToolParams, type JsonSchema } from './tool-params';

/** What a running tool may use; `signal` aborts on cancel and on the tool's timeout. */
export interface ToolContext {
  readonly signal: AbortSignal;
  readonly runId: string;
  readonly sessionId: string;
  readonly toolCallId: string;
  readonly step: number;
}

/** A source a tool result rests on; becomes a `Citation` trace event. */
export interface ToolCitation {
  note_id: string;
  block_id?: string;
  title?: string;
  snippet?: string;
  score?: number;
  start_line?: number;
  end_line?: number;
}

export interface ToolOutput<R = unknown> {
  /** The raw value, kept for audit and the trace (`MetonaToolResult.result`). */
  result: R;
  /** What the model reads; a truncated JSON of `result` when absent. */
  summary?: string;
  citations?: ToolCitation[];
}

/**
 * The internal tool definition (the standard's ToolDefinition): zod parameters
 * for validation and type inference; the registry exposes it as MetonaToolDef.
 * Names are namespaced (`notes.read`, later `mcp.<server>.<tool>`).
 */
export interface AgentToolSpec<S extends z.ZodObject = z.ZodObject> {
  name: string;
  description: string;
  parameters: S;
  category: MetonaToolCategory;
  riskLevel: MetonaRiskLevel;
  requiresPermission: boolean;
  /** The permission asked for (contract §6.3 `notes.write`); defaults to `<namespace>.write`. */
  permission?: string;
  timeoutMs?: number;
  execute(args: z.output<S>, context: ToolContext): Promise<ToolOutput>;
  /**
   * What the call would do, for the permission prompt: one line a person can
   * read and, for note writes, the diff it would apply. Must not write.
   */
  preview?(args: z.output<S>, context: { signal: AbortSignal }): Promise<ToolPreview>;
}

// Re-exported: the agent's modules import it with the tool types; its home is the contract.
export type { PreviewAction };

export interface ToolPreview {
  summary: string;
  diff?: string;
  /** The same as `summary`, as data: the page words it in the user's language. */
  action?: PreviewAction;
}

/** Keeps the parameter type of `execute` tied to the schema at the definition site. */
export function defineTool<S extends z.ZodObject>(spec: AgentToolSpec<S>): AgentToolSpec {
  return spec as unknown as AgentToolSpec;
}

export interface RegisteredTool {
  readonly spec: AgentToolSpec;
  readonly definition: MetonaToolDef;
  /** Full JSON Schema, for consumers that take more than the IR's MetonaToolParams. */
  readonly jsonSchema: JsonSchema;
  readonly permission: string;
  /** Schema keywords the IR could not carry (see `toMetonaToolParams`). */
  readonly folded: readonly string[];
}

export type ToolStatus =
  | 'ok'
  | 'error'
  | 'invalid_arguments'
  | 'unknown_tool'
  | 'not_allowed'
  | 'denied'
  /** The tool went away (its plugin was turned off or removed) while its call waited for permission. */
  | 'withdrawn'
  | 'timeout'
  | 'cancelled'
  /** Asked for by the last model call the step limit allowed: never run. */
  | 'step_limit';

export interface ToolExecution {
  status: ToolStatus;
  result: MetonaToolResult;
  citations: ToolCitation[];
  /** Validated arguments; absent when validation did not pass. */
  args?: Record<string, unknown>;
  /** The project's error code of a failure, where one names it (an AppError's, a plugin's timeout). */
  errorCode?: ErrorCode;
}

export type AuthorizationOutcome =
  { allowed: true } | { allowed: false; reason: string; cancelled?: boolean; withdrawn?: boolean };

export interface ToolExecuteOptions {
  signal: AbortSignal;
  runId: string;
  sessionId: string;
  step: number;
  /** When set, tools outside it are reported as not allowed, not run. */
  allowedTools?: ReadonlySet<string>;
  /** Asked after validation and before running (permissions); its wait is not part of the timeout. */
  authorize?: (
    tool: RegisteredTool,
    args: Record<string, unknown>,
    call: MetonaToolCall,
  ) => Promise<AuthorizationOutcome>;
}

export const DEFAULT_TOOL_TIMEOUT_MS = 30_000;
/** The model reads summaries; a longer one is cut here. */
export const MAX_SUMMARY_CHARS = 4_000;
const TOOL_NAME = /^[A-Za-z][\w-]*(?:\.[A-Za-z][\w-]*)+$/;
const MAX_TOOL_NAME_LENGTH = 64;

export function truncateText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… [${text.length - max} more characters]` : text;
}

function defaultSummary(result: unknown): string {
  if (typeof result === 'string') return truncateText(result, MAX_SUMMARY_CHARS);
  if (result === undefined) return 'Done.';
  return truncateText(JSON.stringify(result) ?? String(result), MAX_SUMMARY_CHARS);
}

/** A thrown value as text the model may read: the message only, never a stack. */
function errorText(error: unknown): string {
  if (error instanceof Error && error.message) return truncateText(error.message, 500);
  return 'it gave no reason.';
}

/**
 * The code of a tool that threw something other than an AppError (a bug, a
 * failed lookup): the contract's MCP_TOOL_CALL_FAILED for a plugin's tool; a
 * built-in tool's failure has no contract code (§7.7 names only MCP and
 * command failures), so it is the project's INTERNAL_ERROR. Either way the
 * timeline and the model get a code, never a bare message.
 */
export function thrownErrorCode(category: MetonaToolCategory): ErrorCode {
  return category === 'mcp' ? 'MCP_TOOL_CALL_FAILED' : 'INTERNAL_ERROR';
}

function issuesText(error: z.ZodError): string {
  return error.issues
    .slice(0, 10)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(arguments)'}: ${issue.message}`)
    .join('; ');
}

type Settled =
  { kind: 'done'; output: ToolOutput } | { kind: 'thrown'; error: unknown } | { kind: 'aborted' };

/**
 * Holds the tools, exposes them as MetonaToolDef, and runs calls: unknown and
 * disallowed names are reported, arguments are validated before anything runs
 * (an invalid call is reported to the model, not executed), the authorizer
 * (permissions) is asked, and each run is bounded by its timeout and the
 * caller's signal. `execute` never throws: every outcome is a tool result.
 */
export class ToolRegistry {
  readonly #tools = new Map<string, RegisteredTool>();
  readonly #clock: Clock;

  constructor(options: { clock?: Clock } = {}) {
    this.#clock = options.clock ?? systemClock;
  }

  register(...specs: AgentToolSpec[]): this {
    for (const spec of specs) {
      if (!TOOL_NAME.test(spec.name) || spec.name.length > MAX_TOOL_NAME_LENGTH) {
        throw new Error(`tool name "${spec.name}" must be namespaced like "notes.read"`);
      }
      if (this.#tools.has(spec.name)) throw new Error(`tool "${spec.name}" is registered twice`);
      const { params, folded } = toMetonaToolParams(spec.parameters);
      const definition = metonaToolDefSchema.parse({
        name: spec.name,
        description: spec.description,
        parameters: params,
        category: spec.category,
        riskLevel: spec.riskLevel,
        requiresPermission: spec.requiresPermission,
        timeoutMs: spec.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
      });
      const namespace = spec.name.slice(0, spec.name.indexOf('.'));
      this.#tools.set(spec.name, {
        spec,
        definition,
        jsonSchema: toJsonSchema(spec.parameters),
        permission: spec.permission ?? `${namespace}.write`,
        folded,
      });
    }
    return this;
  }

  unregister(name: string): boolean {
    return this.#tools.delete(name);
  }

  get(name: string): RegisteredTool | undefined {
    return this.#tools.get(name);
  }

  names(): string[] {
    return [...this.#tools.keys()];
  }

  /** The IR view, optionally narrowed to `allowed`. */
  definitions(allowed?: Iterable<string>): MetonaToolDef[] {
    const names = allowed ? new Set(allowed) : undefined;
    return [...this.#tools.values()]
      .filter((tool) => !names || names.has(tool.definition.name))
      .map((tool) => tool.definition);
  }

  async execute(call: MetonaToolCall, options: ToolExecuteOptions): Promise<ToolExecution> {
    let started = this.#clock();
    const finish = (
      status: ToolStatus,
      fields: { result?: unknown; summary: string; error?: string },
      extra: Partial<ToolExecution> = {},
    ): ToolExecution => ({
      status,
      citations: [],
      ...extra,
      result: {
        toolCallId: call.id,
        toolName: call.name,
        result: fields.result,
        summary: fields.summary,
        success: status === 'ok',
        ...(fields.error !== undefined && { error: fields.error }),
        durationMs: Math.max(0, this.#clock() - started),
        timestamp: this.#clock(),
      },
    });
    const failed = (status: ToolStatus, error: string, extra?: Partial<ToolExecution>) =>
      finish(status, { summary: error, error }, extra);

    const tool = this.#tools.get(call.name);
    if (!tool) {
      const known = this.names().join(', ');
      return failed('unknown_tool', `Unknown tool "${call.name}". Available tools: ${known || 'none'}.`);
    }
    if (options.allowedTools && !options.allowedTools.has(call.name)) {
      return failed('not_allowed', `The tool "${call.name}" is not allowed in this run.`);
    }
    const parsed = tool.spec.parameters.safeParse(call.args);
    if (!parsed.success) {
      return failed(
        'invalid_arguments',
        `Invalid arguments for ${call.name}: ${issuesText(parsed.error)}. The call was not executed; fix the arguments and try again.`,
        { errorCode: 'VALIDATION_FAILED' },
      );
    }
    const args = parsed.data as Record<string, unknown>;
    if (options.signal.aborted) return failed('cancelled', 'The run was cancelled.', { args });

    if (options.authorize) {
      const outcome = await options.authorize(tool, args, call);
      if (!outcome.allowed) {
        const status = outcome.cancelled ? 'cancelled' : outcome.withdrawn ? 'withdrawn' : 'denied';
        return failed(status, outcome.reason, { args });
      }
    }
    if (options.signal.aborted) return failed('cancelled', 'The run was cancelled.', { args });

    started = this.#clock(); // the wait for a permission decision is not the tool's time
    const timeoutMs = tool.definition.timeoutMs;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new DOMException(`${call.name} timed out`, 'TimeoutError'));
    }, timeoutMs);
    const forward = () => controller.abort(options.signal.reason);
    options.signal.addEventListener('abort', forward, { once: true });

    const context: ToolContext = {
      signal: controller.signal,
      runId: options.runId,
      sessionId: options.sessionId,
      toolCallId: call.id,
      step: options.step,
    };
    const settled = await new Promise<Settled>((resolve) => {
      // A tool that ignores its signal is abandoned here; its late result is dropped.
      controller.signal.addEventListener('abort', () => resolve({ kind: 'aborted' }), { once: true });
      Promise.resolve()
        .then(() => tool.spec.execute(args, context))
        .then(
          (output) => resolve({ kind: 'done', output }),
          (error: unknown) => resolve({ kind: 'thrown', error }),
        );
    });
    clearTimeout(timer);
    options.signal.removeEventListener('abort', forward);

    if (settled.kind === 'aborted' || (settled.kind === 'thrown' && controller.signal.aborted)) {
      if (timedOut && !options.signal.aborted) {
        return failed('timeout', `The tool ${call.name} did not finish within ${timeoutMs} ms.`, {
          args,
          ...(tool.definition.category === 'mcp' && { errorCode: 'MCP_TOOL_CALL_FAILED' as const }),
        });
      }
      return failed('cancelled', 'The run was cancelled while the tool was running.', { args });
    }
    if (settled.kind === 'thrown') {
      if (isAppError(settled.error)) {
        return failed('error', settled.error.message, { args, errorCode: settled.error.code });
      }
      return failed('error', `The tool ${call.name} failed: ${errorText(settled.error)}`, {
        args,
        errorCode: thrownErrorCode(tool.definition.category),
      });
    }
    const { output } = settled;
    return finish(
      'ok',
      {
        result: output.result,
        summary: truncateText(output.summary ?? defaultSummary(output.result), MAX_SUMMARY_CHARS),
      },
      { args, citations: output.citations ?? [] },
    );
  }
}

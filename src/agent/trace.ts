import { AppError, type EventEnvelope, type SequencePage } from '../contracts';
import type { EventLog } from '../core/event-log';
import { newId, systemClock, type Clock } from '../core/ids';
import type {
  AgentConfigSnapshot,
  AgentEventData,
  AgentEventName,
  AgentRunStatus,
  ArtifactRef,
  TokenUsageData,
} from './agent-events';
import { SecretRedactor } from './redaction';
import { addToRunTotals, emptyRunTotals, type RunTotals } from './run-totals';

// ---------------------------------------------------------------------------
// Artifacts: large tool payloads stored beside the trace (§6.4)
// ---------------------------------------------------------------------------

export type ArtifactKind = 'tool_result' | 'tool_arguments';

export interface TraceArtifact extends ArtifactRef {
  run_id: string;
  kind: ArtifactKind;
  content: string;
  created_at: number;
}

export interface ArtifactInput {
  run_id: string;
  kind: ArtifactKind;
  mime_type: string;
  content: string;
}

/** Where large payloads go; IndexedDB in the app, memory in tests. */
export interface ArtifactStore {
  put(artifact: ArtifactInput): Promise<ArtifactRef>;
  get(artifactId: string): Promise<TraceArtifact | undefined>;
}

export class MemoryArtifactStore implements ArtifactStore {
  readonly #artifacts = new Map<string, TraceArtifact>();
  readonly #clock: Clock;

  constructor(clock: Clock = systemClock) {
    this.#clock = clock;
  }

  async put(artifact: ArtifactInput): Promise<ArtifactRef> {
    const ref: ArtifactRef = {
      artifact_id: newId('artifact'),
      size_bytes: new TextEncoder().encode(artifact.content).length,
      mime_type: artifact.mime_type,
    };
    this.#artifacts.set(ref.artifact_id, { ...artifact, ...ref, created_at: this.#clock() });
    return ref;
  }

  async get(artifactId: string): Promise<TraceArtifact | undefined> {
    return this.#artifacts.get(artifactId);
  }

  all(): TraceArtifact[] {
    return [...this.#artifacts.values()];
  }
}

// ---------------------------------------------------------------------------
// Recording
// ---------------------------------------------------------------------------

/** Payloads above this many bytes of JSON go to the artifact store. */
export const DEFAULT_MAX_INLINE_BYTES = 8 * 1024;
const PREVIEW_CHARS = 1_000;

export interface TraceRecorderOptions {
  log: EventLog;
  runId: string;
  redactor?: SecretRedactor;
  artifacts?: ArtifactStore;
  maxInlineBytes?: number;
}

const OFFLOADED: Partial<Record<AgentEventName, { field: string; kind: ArtifactKind }>> = {
  ToolCall: { field: 'arguments', kind: 'tool_arguments' },
  ToolResult: { field: 'result', kind: 'tool_result' },
};

/**
 * Writes one run's events: redacted, large payloads moved to artifacts, and
 * published in call order even when callers do not wait (stream deltas).
 * `flush()` waits for everything emitted so far and reports a failed write.
 */
export class TraceRecorder {
  readonly runId: string;
  readonly #log: EventLog;
  readonly #redactor: SecretRedactor;
  readonly #artifacts: ArtifactStore | undefined;
  readonly #maxInlineBytes: number;
  #tail: Promise<unknown> = Promise.resolve();
  #failure: unknown;
  #lastSequence = 0;

  constructor(options: TraceRecorderOptions) {
    this.runId = options.runId;
    this.#log = options.log;
    this.#redactor = options.redactor ?? new SecretRedactor();
    this.#artifacts = options.artifacts;
    this.#maxInlineBytes = options.maxInlineBytes ?? DEFAULT_MAX_INLINE_BYTES;
  }

  /** The sequence of the last event written. */
  get lastSequence(): number {
    return this.#lastSequence;
  }

  emit<E extends AgentEventName>(event: E, data: AgentEventData[E]): Promise<EventEnvelope> {
    const next = this.#tail.then(() => this.#write(event, data));
    this.#tail = next.catch((error: unknown) => {
      this.#failure ??= error;
    });
    return next;
  }

  async flush(): Promise<void> {
    await this.#tail;
    if (this.#failure !== undefined) throw this.#failure;
  }

  async #write(event: AgentEventName, data: unknown): Promise<EventEnvelope> {
    let payload = this.#redactor.redact(data) as Record<string, unknown>;
    const offload = OFFLOADED[event];
    if (offload) payload = await this.#offload(payload, offload.field, offload.kind);
    const envelope = await this.#log.publish(this.runId, event, payload);
    this.#lastSequence = envelope.sequence;
    return envelope;
  }

  async #offload(
    payload: Record<string, unknown>,
    field: string,
    kind: ArtifactKind,
  ): Promise<Record<string, unknown>> {
    const value = payload[field];
    if (value === undefined) return payload;
    const json = JSON.stringify(value) ?? 'null';
    if (new TextEncoder().encode(json).length <= this.#maxInlineBytes) return payload;
    const preview = `${json.slice(0, PREVIEW_CHARS)}…`;
    if (!this.#artifacts) return { ...payload, [field]: preview, [`${field}_truncated`]: true };
    const ref = await this.#artifacts.put({
      run_id: this.runId,
      kind,
      mime_type: 'application/json',
      content: json,
    });
    return { ...payload, [field]: preview, [`${field}_artifact`]: ref };
  }
}

// ---------------------------------------------------------------------------
// Reading: the §6.2 snapshot
// ---------------------------------------------------------------------------

export interface AgentTraceSummary {
  model_calls: number;
  tool_calls: number;
  duration_ms: number;
  token_usage: number;
  /** Failed model calls, failed tool results (invalid, denied, timed out…) and a failed run; cancellations are not errors. */
  errors: number;
  /**
   * What the run list shows of the run (steps, input/output tokens, duration), from the
   * same events. Optional: a run that ended before its first event has no trace to fold.
   */
  totals?: RunTotals;
}

export interface AgentTraceSnapshot extends SequencePage<EventEnvelope> {
  run_id: string;
  status: AgentRunStatus;
  summary: AgentTraceSummary;
  config_snapshot: AgentConfigSnapshot | Record<string, never>;
}

export const MAX_TRACE_PAGE_LIMIT = 1_000;
const SCAN_PAGE = 500;

const TERMINAL_STATUS: Partial<Record<string, AgentRunStatus>> = {
  RunCompleted: 'completed',
  RunFailed: 'failed',
  RunCancelled: 'cancelled',
};

function isCursor(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 0;
}

/**
 * §6.2 `GET /api/agent/runs/{run_id}/trace`: events after `afterSequence`
 * (at most `limit`), the run status, a summary over the whole run and the
 * configuration it ran with. Errors: AGENT_RUN_NOT_FOUND for a run with no
 * events, TRACE_CURSOR_INVALID for a cursor that is not a sequence or lies
 * past the end, TRACE_NOT_AVAILABLE for a resource that is not an agent run.
 */
export async function traceSnapshot(
  log: EventLog,
  runId: string,
  afterSequence = 0,
  limit = 200,
): Promise<AgentTraceSnapshot> {
  if (!isCursor(afterSequence)) {
    throw new AppError('TRACE_CURSOR_INVALID', 'The trace cursor is not a valid sequence.', {
      run_id: runId,
      after_sequence: afterSequence,
    });
  }
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_TRACE_PAGE_LIMIT) {
    throw new AppError('INVALID_REQUEST', `limit must be between 1 and ${MAX_TRACE_PAGE_LIMIT}.`, {
      limit,
    });
  }

  let first: EventEnvelope | undefined;
  let last: EventEnvelope | undefined;
  let status: AgentRunStatus = 'running';
  let terminalDuration: number | undefined;
  const summary: AgentTraceSummary = {
    model_calls: 0,
    tool_calls: 0,
    duration_ms: 0,
    token_usage: 0,
    errors: 0,
  };
  const totals = emptyRunTotals();
  for (let cursor = 0; ;) {
    const page = await log.list(runId, cursor, SCAN_PAGE);
    for (const envelope of page.items) {
      first ??= envelope;
      last = envelope;
      addToRunTotals(totals, envelope);
      const data = (envelope.data ?? {}) as Record<string, unknown>;
      switch (envelope.event) {
        case 'ModelCallStarted':
          summary.model_calls += 1;
          break;
        case 'ModelCallFailed':
          if (data.metona_code !== 'user_aborted') summary.errors += 1;
          break;
        case 'ToolCall':
          summary.tool_calls += 1;
          break;
        case 'ToolResult':
          if (data.success === false && data.status !== 'cancelled') summary.errors += 1;
          break;
        case 'Usage':
          summary.token_usage += typeof data.total_tokens === 'number' ? data.total_tokens : 0;
          break;
        case 'RunFailed':
          summary.errors += 1;
          break;
      }
      const terminal = TERMINAL_STATUS[envelope.event];
      if (terminal) {
        status = terminal;
        if (typeof data.duration_ms === 'number') terminalDuration = data.duration_ms;
      }
    }
    cursor = page.next_sequence;
    if (!page.has_more) break;
  }

  if (!first || !last) {
    throw new AppError('AGENT_RUN_NOT_FOUND', 'The agent run was not found.', { run_id: runId });
  }
  if (first.event !== 'RunStarted') {
    throw new AppError('TRACE_NOT_AVAILABLE', 'This resource has no agent trace.', { run_id: runId });
  }
  if (afterSequence > last.sequence) {
    throw new AppError('TRACE_CURSOR_INVALID', 'The trace cursor lies past the last event of this run.', {
      run_id: runId,
      after_sequence: afterSequence,
      last_sequence: last.sequence,
    });
  }
  summary.duration_ms =
    terminalDuration ?? Math.max(0, Date.parse(last.timestamp) - Date.parse(first.timestamp));

  const page = await log.list(runId, afterSequence, limit);
  const started = first.data as { config_snapshot?: AgentConfigSnapshot };
  return {
    run_id: runId,
    status,
    items: page.items,
    next_sequence: page.next_sequence,
    has_more: page.has_more,
    summary: { ...summary, totals },
    config_snapshot: started.config_snapshot ?? {},
  };
}

export function addUsage(total: TokenUsageData, usage: TokenUsageData): TokenUsageData {
  return {
    input_tokens: total.input_tokens + usage.input_tokens,
    output_tokens: total.output_tokens + usage.output_tokens,
    total_tokens: total.total_tokens + usage.total_tokens,
  };
}

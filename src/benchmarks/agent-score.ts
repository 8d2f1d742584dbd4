import type { AgentCaseDto, AgentCaseResult, EventEnvelope } from '../contracts';

/** Tool statuses that mean the call was refused before it ran. */
const INVALID_STATUSES = new Set(['invalid_arguments', 'unknown_tool', 'not_allowed']);
/** Tools whose successful result counts as grounding the answer in the notes. */
const CITING_TOOLS = new Set(['rag.search', 'notes.read', 'notes.search']);
const TERMINAL_EVENTS = new Set(['RunCompleted', 'RunFailed', 'RunCancelled']);

/** What a case's notebook holds, before and after the case: notes and open checklist items. */
export interface NotebookCounts {
  notes: number;
  tasks: number;
}

/** Open checklist items (`- [ ] …`) in a note body: what `tasks.create` writes. */
export function openTaskCount(body: string): number {
  return body.match(/^\s*[-*] \[ \] /gmu)?.length ?? 0;
}

export function isTerminalAgentEvent(event: string): boolean {
  return TERMINAL_EVENTS.has(event);
}

export interface ScoredCaseInput {
  entry: AgentCaseDto;
  /** The case's trace events, in order. */
  events: readonly EventEnvelope[];
  /** The run's final status (`completed`, `failed`, ...). */
  status: string;
  before: NotebookCounts;
  after: NotebookCounts;
  latency: number;
  tokenBudget: number;
  runId: string;
  /** The run's recorded error, for a run that failed before its loop wrote a terminal event. */
  runError?: { code: string; message: string } | null;
}

/**
 * Scores one agent case from its trace and what it wrote (§9.7): every
 * expected condition that failed becomes part of the failure reason.
 */
export function scoreAgentCase(input: ScoredCaseInput): AgentCaseResult {
  const { entry, events, status, before, after } = input;
  const calls = events
    .filter((event) => event.event === 'ToolCall')
    .map((event) => event.data as { name: string });
  const results = events
    .filter((event) => event.event === 'ToolResult')
    .map((event) => event.data as { name: string; status: string; success: boolean });
  const terminal = events.find((event) => isTerminalAgentEvent(event.event));
  const end = (terminal?.data ?? {}) as {
    steps?: number;
    output?: string;
    code?: string;
    message?: string;
    reason?: string;
    token_usage?: { total_tokens?: number };
  };
  const tokens = end.token_usage?.total_tokens ?? 0;
  const toolsCalled = calls.map((call) => call.name);
  const reasons: string[] = [];
  if (end.reason === 'token_budget') {
    reasons.push(`token budget exceeded: the run was stopped at ${tokens} of ${input.tokenBudget} tokens`);
  } else if (status !== 'completed') {
    const code = end.code ?? input.runError?.code;
    const message = end.message ?? input.runError?.message ?? '';
    reasons.push(`run ${status}${code ? ` (${code}: ${message})` : ''}`);
  }
  const missing = entry.expected_tools.filter((name) => !toolsCalled.includes(name));
  if (missing.length > 0) reasons.push(`expected tools not called: ${missing.join(', ')}`);
  const conditions = entry.expected_conditions;
  if (conditions.tasks_created !== undefined && after.tasks - before.tasks !== conditions.tasks_created) {
    reasons.push(`tasks_created: expected ${conditions.tasks_created}, got ${after.tasks - before.tasks}`);
  }
  if (conditions.notes_created !== undefined && after.notes - before.notes !== conditions.notes_created) {
    reasons.push(`notes_created: expected ${conditions.notes_created}, got ${after.notes - before.notes}`);
  }
  if (
    conditions.citation_required &&
    !results.some((result) => result.success && CITING_TOOLS.has(result.name))
  ) {
    reasons.push('citation_required: no note was searched or read successfully');
  }
  for (const text of conditions.answer_contains ?? []) {
    if (!(end.output ?? '').includes(text)) reasons.push(`answer does not contain "${text}"`);
  }
  if (end.reason !== 'token_budget' && tokens > input.tokenBudget)
    reasons.push(`token budget exceeded: ${tokens} > ${input.tokenBudget}`);
  return {
    kind: 'agent',
    case_id: entry.case_id,
    prompt: entry.prompt,
    trace_run_id: input.runId,
    status,
    passed: reasons.length === 0,
    failure_reason: reasons.length === 0 ? null : reasons.join('; '),
    tools_called: toolsCalled,
    expected_tools: [...entry.expected_tools],
    invalid_tool_calls: results.filter((result) => INVALID_STATUSES.has(result.status)).length,
    tool_calls: calls.length,
    argument_errors: results.filter((result) => result.status === 'invalid_arguments').length,
    steps: end.steps ?? 0,
    latency_ms: Math.round(input.latency * 100) / 100,
    token_usage: tokens,
  };
}

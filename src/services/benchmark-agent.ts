import {
  AppError,
  type AgentCaseDto,
  type AgentCaseResult,
  type AgentDatasetFile,
  type EventEnvelope,
} from '../contracts';
import { datasetBlocks } from '../benchmarks';
import { EventLog } from '../core/event-log';
import { JobRuntime } from '../core/job-runtime';
import {
  EventRepository,
  IndexRepository,
  JobRepository,
  NotesRepository,
  type NotesAgentDatabase,
} from '../db';
import { seedBenchmarkNotes } from '../db/benchmark-repository';
import type { Embedder } from '../retrieval';
import { SearchIndexer } from '../retrieval/search-indexer';
import { createAgentService, type AgentAdapterFactory, type AgentService } from './agent-service';
import { NotesService } from './notes-service';
import { SearchService } from './search-service';

/** Tool statuses that mean the call was refused before it ran. */
const INVALID_STATUSES = new Set(['invalid_arguments', 'unknown_tool', 'not_allowed']);
/** Tools whose successful result counts as grounding the answer in the notes. */
const CITING_TOOLS = new Set(['rag.search', 'notes.search', 'notes.read']);
/** Events of one case kept in the report, so a failed case still opens its trace after cleanup. */
export const MAX_TRACE_EVENTS = 400;

export interface AgentCaseOutcome {
  result: AgentCaseResult;
  trace: EventEnvelope[];
}

/**
 * A benchmark's own notebook for agent cases: the dataset's notes in a
 * separately named database with its own job runtime, search index and agent
 * service, so write tools change only this copy. Permission prompts are
 * answered "allow once" here and only here.
 */
export class AgentSandbox {
  readonly #db: NotesAgentDatabase;
  readonly #notes: NotesRepository;
  readonly #indexer: SearchIndexer;
  readonly #runtime: JobRuntime;
  readonly agent: AgentService;

  constructor(db: NotesAgentDatabase, embedder: Embedder, adapters: AgentAdapterFactory) {
    this.#db = db;
    const events = new EventLog(new EventRepository(db));
    this.#runtime = new JobRuntime(new JobRepository(db), events);
    const sources = new NotesRepository(db);
    this.#indexer = new SearchIndexer({
      notes: sources,
      store: new IndexRepository(db),
      runtime: this.#runtime,
      embedder,
      debounceMs: 0,
    });
    this.#notes = new NotesRepository(db, { listener: this.#indexer });
    const search = new SearchService(sources, this.#indexer);
    this.agent = createAgentService({
      db,
      events,
      runtime: this.#runtime,
      notes: new NotesService(this.#notes),
      search,
      adapters,
    });
  }

  async seed(dataset: AgentDatasetFile, now: string): Promise<void> {
    await seedBenchmarkNotes(
      this.#db,
      dataset.notes.map((note) => ({ ...note, blocks: datasetBlocks(note) })),
      now,
    );
    await this.#indexer.start();
    await this.#indexer.view();
  }

  /** Notes and open checklist items now, to tell what a case wrote. */
  async counts(): Promise<{ notes: number; tasks: number }> {
    const notes = await this.#notes.all({ trashed: false });
    let tasks = 0;
    for (const note of notes) tasks += note.body.match(/^\s*[-*] \[ \] /gmu)?.length ?? 0;
    return { notes: notes.length, tasks };
  }

  async close(): Promise<void> {
    this.#indexer.dispose();
    await this.#runtime.idle().catch(() => undefined);
    await this.#db.delete();
  }
}

export interface AgentCaseRequest {
  provider_id: string;
  model: string;
  max_steps: number;
  token_budget: number;
}

/**
 * Runs one case through the agent runtime (permissions and step limit
 * included) and scores it from its trace.
 */
export async function runAgentCase(
  sandbox: AgentSandbox,
  entry: AgentCaseDto,
  request: AgentCaseRequest,
  clock: () => number,
  signal: AbortSignal,
): Promise<AgentCaseOutcome> {
  const before = await sandbox.counts();
  const started = clock();
  const run = await sandbox.agent.start({
    prompt: entry.prompt,
    provider: request.provider_id,
    model: request.model,
    max_steps: Math.min(request.max_steps, 50),
    allowed_tools: entry.allowed_tools,
  });
  await new Promise<void>((resolve) => {
    const onAbort = (): void => void sandbox.agent.cancel(run.run_id).catch(() => undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    // The subscription ends by itself after the run's one terminal event.
    sandbox.agent.subscribe(run.run_id, 0, (envelope) => {
      if (envelope.event === 'PermissionRequired') {
        const data = envelope.data as { request_id: string };
        void sandbox.agent
          .resolvePermission({ run_id: run.run_id, request_id: data.request_id, decision: 'allow_once' })
          .catch(() => undefined);
      }
      if (
        envelope.event === 'RunCompleted' ||
        envelope.event === 'RunFailed' ||
        envelope.event === 'RunCancelled'
      ) {
        signal.removeEventListener('abort', onAbort);
        resolve();
      }
    });
  });
  const latency = clock() - started;
  signal.throwIfAborted();
  const trace = await sandbox.agent.trace({ run_id: run.run_id, after_sequence: 0, limit: MAX_TRACE_EVENTS });
  const after = await sandbox.counts();
  return {
    result: scoreCase(entry, trace.items, trace.status, after, before, latency, request, run.run_id),
    trace: trace.items,
  };
}

/** Scores a case from its trace events and what it wrote; exported for tests. */
export function scoreCase(
  entry: AgentCaseDto,
  events: readonly EventEnvelope[],
  status: string,
  after: { notes: number; tasks: number },
  before: { notes: number; tasks: number },
  latency: number,
  request: Pick<AgentCaseRequest, 'token_budget'>,
  runId: string,
): AgentCaseResult {
  const calls = events
    .filter((event) => event.event === 'ToolCall')
    .map((event) => event.data as { name: string });
  const results = events
    .filter((event) => event.event === 'ToolResult')
    .map((event) => event.data as { name: string; status: string; success: boolean });
  const terminal = events.find((event) =>
    ['RunCompleted', 'RunFailed', 'RunCancelled'].includes(event.event),
  );
  const end = (terminal?.data ?? {}) as {
    steps?: number;
    output?: string;
    code?: string;
    message?: string;
    token_usage?: { total_tokens?: number };
  };
  const tokens = end.token_usage?.total_tokens ?? 0;
  const toolsCalled = calls.map((call) => call.name);
  const reasons: string[] = [];
  if (status !== 'completed')
    reasons.push(`run ${status}${end.code ? ` (${end.code}: ${end.message ?? ''})` : ''}`);
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
  if (tokens > request.token_budget)
    reasons.push(`token budget exceeded: ${tokens} > ${request.token_budget}`);
  return {
    kind: 'agent',
    case_id: entry.case_id,
    prompt: entry.prompt,
    trace_run_id: runId,
    status,
    passed: reasons.length === 0,
    failure_reason: reasons.length === 0 ? null : reasons.join('; '),
    tools_called: toolsCalled,
    expected_tools: [...entry.expected_tools],
    invalid_tool_calls: results.filter((result) => INVALID_STATUSES.has(result.status)).length,
    tool_calls: calls.length,
    argument_errors: results.filter((result) => result.status === 'invalid_arguments').length,
    steps: end.steps ?? 0,
    latency_ms: Math.round(latency * 100) / 100,
    token_usage: tokens,
  };
}

export function notAgentDataset(datasetId: string): AppError {
  return new AppError('BENCHMARK_CONFIG_INVALID', `${datasetId} is not an agent dataset.`, {
    field: 'dataset_id',
  });
}

import {
  AppError,
  type AgentCaseDto,
  type AgentCaseResult,
  type AgentDatasetFile,
  type EventEnvelope,
} from '../contracts';
import {
  isTerminalAgentEvent,
  openTaskCount,
  scoreAgentCase,
  seedDataset,
  type NotebookCounts,
} from '../benchmarks';
import { EventLog, type Subscription } from '../core/event-log';
import { JobRuntime } from '../core/job-runtime';
import {
  EventRepository,
  IndexRepository,
  JobRepository,
  NotesRepository,
  type NotesAgentDatabase,
} from '../db';
import type { Embedder } from '../retrieval';
import { SearchIndexer } from '../retrieval/search-indexer';
import { createAgentService, type AgentAdapterFactory, type AgentService } from './agent-service';
import { NotesService } from './notes-service';
import { SearchService } from './search-service';

const JOB_TERMINAL_EVENTS = new Set(['Completed', 'Failed', 'Cancelled']);

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
    await seedDataset(this.#db, dataset, now);
    await this.#indexer.start();
    await this.#indexer.view();
  }

  /** Notes and open checklist items now, to tell what a case wrote. */
  async counts(): Promise<NotebookCounts> {
    const notes = await this.#notes.all({ trashed: false });
    let tasks = 0;
    for (const note of notes) tasks += openTaskCount(note.body);
    return { notes: notes.length, tasks };
  }

  /** The events of a job of this sandbox's runtime (an agent run's job). */
  jobEvents(jobId: string, onEvent: (envelope: EventEnvelope) => void): Subscription {
    return this.#runtime.subscribe(jobId, 0, onEvent);
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
 * Runs one case through the agent runtime (permissions, step limit and token
 * budget included) and scores it from its trace.
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
    // The loop checks the budget before every model call and caps each answer at what is left.
    token_budget: request.token_budget,
    allowed_tools: entry.allowed_tools,
  });
  const subscriptions: Subscription[] = [];
  await new Promise<void>((resolve) => {
    const onAbort = (): void => void sandbox.agent.cancel(run.run_id).catch(() => undefined);
    const finish = (): void => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    // Aborted while the run was being created: the listener would never fire.
    if (signal.aborted) onAbort();
    subscriptions.push(
      sandbox.agent.subscribe(run.run_id, 0, (envelope) => {
        if (envelope.event === 'PermissionRequired') {
          const data = envelope.data as { request_id: string };
          void sandbox.agent
            .resolvePermission({ run_id: run.run_id, request_id: data.request_id, decision: 'allow_once' })
            .catch(() => undefined);
        }
        if (isTerminalAgentEvent(envelope.event)) finish();
      }),
      // A run that fails before its loop starts (no model) has no run events at all; its job's end says so.
      sandbox.jobEvents(run.job_id, (envelope) => {
        if (JOB_TERMINAL_EVENTS.has(envelope.event)) finish();
      }),
    );
  });
  for (const subscription of subscriptions) subscription.close();
  const latency = clock() - started;
  signal.throwIfAborted();
  const trace = await sandbox.agent.trace({ run_id: run.run_id, after_sequence: 0, limit: MAX_TRACE_EVENTS });
  const after = await sandbox.counts();
  const ended = trace.items.some((event) => isTerminalAgentEvent(event.event));
  const runError = ended ? null : (await sandbox.agent.get(run.run_id)).error;
  return {
    result: scoreAgentCase({
      entry,
      events: trace.items,
      status: trace.status,
      before,
      after,
      latency,
      tokenBudget: request.token_budget,
      runId: run.run_id,
      runError,
    }),
    trace: trace.items,
  };
}

export function notAgentDataset(datasetId: string): AppError {
  return new AppError('BENCHMARK_CONFIG_INVALID', `${datasetId} is not an agent dataset.`, {
    field: 'dataset_id',
  });
}

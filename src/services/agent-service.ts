import { z } from 'zod';
import {
  AppError,
  agentRunIdSchema,
  agentTraceQuerySchema,
  isAppError,
  pageQuerySchema,
  parseInput,
  resolvePermissionSchema,
  sequenceQuerySchema,
  startAgentRunSchema,
  toIsoUtc,
  type AgentRunDto,
  type EventEnvelope,
  type OffsetPage,
  type ResolvePermissionInput,
  type SequencePage,
  type SequenceQuery,
  type StartAgentRunInput,
  type TraceQuery,
} from '../contracts';
import {
  AgentLoop,
  PermissionGate,
  PermissionWithdrawnError,
  SecretRedactor,
  ToolRegistry,
  createBuiltInTools,
  traceSnapshot,
  truncateText,
  type AgentRunResult,
  type AgentToolSpec,
  type AgentTraceSnapshot,
  type ArtifactStore,
  type GrantStore,
  type MemoryStore,
  type NotesPort,
  type PermissionDecision,
  type PermissionGrant,
  type PermissionPrompt,
  type PermissionRequest,
  type SearchPort,
} from '../agent';
import type { EventLog, Subscription } from '../core/event-log';
import { newId, systemClock, type Clock } from '../core/ids';
import type { JobContext, JobRuntime } from '../core/job-runtime';
import { SettingsRepository, type NotesAgentDatabase, type SecretsVault } from '../db';
import {
  AgentRunRepository,
  DexieArtifactStore,
  DexieGrantStore,
  DexieMemoryStore,
  type AgentRunRow,
} from '../db/agent-stores';
import type { IMetonaProviderAdapter, MetonaMemoryItem } from '../ir';
import { MOCK_MODEL, MOCK_PROVIDER_ID } from '../providers/mock';
import { DemoAgentAdapter } from './agent-demo-provider';
import { AppNotesPort, AppSearchPort, vaultSecretValues } from './agent-ports';
import { NoteVersionRepository, restoredState, type NoteVersionRow } from '../db/note-versions';
import type { AgentNoteChangeDto, AgentToolInfoDto, NoteDto } from '../contracts';
import type { NotesService } from './notes-service';
import type { SearchService } from './search-service';
import { memoryToolChoiceStore, settingsToolChoiceStore, type ToolChoiceStore } from './agent-tool-choice';

export const AGENT_RUN_JOB_KIND = 'agent.run';
const TITLE_CHARS = 80;
const DEFAULT_TIMEOUT_MS = 10 * 60 * 1000;

/** The wire shape of a stored run, field by field: a new column stays off the wire until it is added here. */
export function toAgentRunDto(row: AgentRunRow): AgentRunDto {
  return {
    run_id: row.run_id,
    job_id: row.job_id,
    status: row.status,
    title: row.title,
    provider_id: row.provider_id,
    model: row.model,
    created_at: row.created_at,
    updated_at: row.updated_at,
    completed_at: row.completed_at,
    output: row.output,
    error: row.error,
    steps: row.steps,
    tool_calls: row.tool_calls,
    total_tokens: row.total_tokens,
  };
}

/** What a job of kind `agent.run` carries; enough to run again after a reload. */
const jobInputSchema = z.object({
  run_id: z.string().min(1),
  prompt: z.string(),
  provider: z.string().optional(),
  model: z.string().optional(),
  max_steps: z.number().int().optional(),
  token_budget: z.number().int().optional(),
  allowed_tools: z.array(z.string()).optional(),
});
type JobInput = z.infer<typeof jobInputSchema>;

/** Picks the model for a run: the injected provider layer, or the offline demo. */
export type AgentAdapterFactory = (choice: {
  provider?: string | undefined;
  model?: string | undefined;
}) => Promise<{ adapter: IMetonaProviderAdapter; model: string }>;

/** The default: only the built-in demo ("mock") provider, no weights, no network. */
export function demoAdapterFactory(options: { chunkDelayMs?: number } = {}): AgentAdapterFactory {
  return async ({ provider, model }) => {
    if (provider !== undefined && provider !== MOCK_PROVIDER_ID) {
      throw new AppError(
        'PROVIDER_UNAVAILABLE',
        `The provider "${provider}" is not available to the agent.`,
        {
          provider,
        },
      );
    }
    return { adapter: new DemoAgentAdapter(options), model: model ?? MOCK_MODEL };
  };
}

export interface AgentServiceDeps {
  runs: AgentRunRepository;
  events: EventLog;
  runtime: JobRuntime;
  notes: NotesPort;
  search: SearchPort;
  artifacts: ArtifactStore;
  grants: GrantStore;
  memory: MemoryStore;
  /** The tools the user turned off (Settings → Agent); in memory when absent. */
  toolChoice?: ToolChoiceStore;
  adapters?: AgentAdapterFactory;
  /** The states before agent writes, and the notes to restore them into (undo). */
  versions?: NoteVersionRepository;
  noteWriter?: Pick<NotesService, 'get' | 'update'>;
  /** Secret values to scrub from traces (the vault's); key shapes are scrubbed anyway. */
  secrets?: () => Promise<string[]>;
  /** Tools beside the built-in ones (tests). */
  extraTools?: AgentToolSpec[];
  /** Tools that come and go (enabled plugins): re-read whole on every change. */
  liveTools?: LiveToolSource;
  timeoutMs?: number;
  clock?: Clock;
}

/** A changing set of tools, e.g. the plugin service's published MCP tools. */
export interface LiveToolSource {
  specs(): AgentToolSpec[];
  onChange(listener: () => void): () => void;
}

interface PendingPermission {
  runId: string;
  tool: string;
  resolve: (decision: PermissionDecision) => void;
  withdraw: () => void;
}

function runNotFound(runId: string): AppError {
  return new AppError('AGENT_RUN_NOT_FOUND', 'The agent run was not found.', { run_id: runId });
}

function isUndoable(row: NoteVersionRow, note: NoteDto): boolean {
  return row.undone_at === null && row.changed_to_version !== null && note.version === row.changed_to_version;
}

function isActive(status: AgentRunRow['status']): boolean {
  return status === 'queued' || status === 'running';
}

/**
 * The agent API the UI calls (contract §6): a run is a job of kind
 * `agent.run` (created at once, cancelled through the job's AbortSignal,
 * failed at start-up when a closed tab left it running), its trace is the
 * run's events in the EventLog (`resource_id = run_id`), and a write tool
 * waits for `resolvePermission`.
 */
export class AgentService {
  readonly #deps: AgentServiceDeps;
  readonly #clock: Clock;
  readonly #adapters: AgentAdapterFactory;
  readonly #registry: ToolRegistry;
  readonly #toolChoice: ToolChoiceStore;
  #toolChoiceChanges: Promise<unknown> = Promise.resolve();
  readonly #pending = new Map<string, PendingPermission>();
  /** Decisions that arrived before the prompt was waiting (the UI answered very fast). */
  readonly #early = new Map<string, PermissionDecision>();
  /** Runs whose loop is executing in this worker. */
  readonly #live = new Set<string>();
  /** Names registered from `liveTools`, replaced whole on each change. */
  #liveToolNames: string[] = [];

  constructor(deps: AgentServiceDeps) {
    this.#deps = deps;
    this.#clock = deps.clock ?? systemClock;
    this.#adapters = deps.adapters ?? demoAdapterFactory();
    this.#toolChoice = deps.toolChoice ?? memoryToolChoiceStore();
    this.#registry = new ToolRegistry().register(
      ...createBuiltInTools({
        notes: deps.notes,
        search: deps.search,
        memory: deps.memory,
        clock: this.#clock,
      }),
      ...(deps.extraTools ?? []),
    );
    if (deps.liveTools) {
      const source = deps.liveTools;
      this.#syncLiveTools(source.specs());
      source.onChange(() => this.#syncLiveTools(source.specs()));
    }
    deps.runtime.register<JobInput, unknown>({
      kind: AGENT_RUN_JOB_KIND,
      concurrency: 2,
      run: (context) => this.#execute(context),
    });
  }

  /**
   * Old live tools out, new ones in; a name that clashes with a built-in tool is skipped. A
   * prompt still waiting for a tool that is gone now is withdrawn: allowing it could only fail.
   */
  #syncLiveTools(specs: AgentToolSpec[]): void {
    for (const name of this.#liveToolNames) this.#registry.unregister(name);
    this.#liveToolNames = [];
    for (const spec of specs) {
      if (this.#registry.get(spec.name)) continue;
      try {
        this.#registry.register(spec);
        this.#liveToolNames.push(spec.name);
      } catch (error) {
        console.warn('a plugin tool was not registered', spec.name, error);
      }
    }
    for (const [requestId, pending] of this.#pending) {
      if (this.#registry.get(pending.tool)) continue;
      this.#pending.delete(requestId);
      pending.withdraw();
    }
  }

  /** Creates the run and its job and returns at once; the run's events tell the rest. */
  async start(input: StartAgentRunInput): Promise<AgentRunDto> {
    const request = parseInput(startAgentRunSchema, input, 'This agent request is not valid.');
    const unknown = (request.allowed_tools ?? []).filter((name) => !this.#registry.get(name));
    if (unknown.length > 0) {
      throw new AppError('INVALID_REQUEST', `Unknown tools: ${unknown.join(', ')}.`, { tools: unknown });
    }
    // Fails now (not inside the job) when the provider is not available.
    const { adapter, model } = await this.#adapters({ provider: request.provider, model: request.model });
    const redactor = await this.#redactor();
    const runId = newId('run');
    const jobInput: JobInput = {
      run_id: runId,
      prompt: request.prompt,
      ...(request.provider !== undefined && { provider: request.provider }),
      ...(request.model !== undefined && { model: request.model }),
      ...(request.max_steps !== undefined && { max_steps: request.max_steps }),
      ...(request.token_budget !== undefined && { token_budget: request.token_budget }),
      ...(request.allowed_tools !== undefined && { allowed_tools: request.allowed_tools }),
    };
    const now = toIsoUtc(this.#clock());
    const row: AgentRunRow = {
      run_id: runId,
      job_id: '',
      status: 'queued',
      title: truncateText(redactor.redactText(request.prompt.split('\n')[0] ?? ''), TITLE_CHARS),
      provider_id: adapter.providerId,
      model,
      created_at: now,
      updated_at: now,
      completed_at: null,
      output: null,
      error: null,
      steps: 0,
      tool_calls: 0,
      total_tokens: 0,
    };
    // The row exists before the job can start, so the job always finds it.
    await this.#deps.runs.put(row);
    const job = await this.#deps.runtime.create(AGENT_RUN_JOB_KIND, jobInput);
    return toAgentRunDto(
      (await this.#deps.runs.update(runId, { job_id: job.job_id })) ?? { ...row, job_id: job.job_id },
    );
  }

  async get(runId: string): Promise<AgentRunDto> {
    return toAgentRunDto(await this.#find(runId));
  }

  async #find(runId: string): Promise<AgentRunRow> {
    const id = parseInput(agentRunIdSchema, runId);
    const row = await this.#deps.runs.get(id);
    if (!row) throw runNotFound(id);
    return this.#reconcile(row);
  }

  async list(input: z.input<typeof pageQuerySchema> = {}): Promise<OffsetPage<AgentRunDto>> {
    const query = parseInput(pageQuerySchema, input);
    const { items, total } = await this.#deps.runs.list(query);
    const reconciled = await Promise.all(items.map((row) => this.#reconcile(row)));
    return {
      items: reconciled.map(toAgentRunDto),
      page: { total, limit: query.limit, offset: query.offset },
    };
  }

  /** Accepted means the run's signal is aborted; its RunCancelled event is the answer. */
  async cancel(runId: string): Promise<AgentRunDto> {
    const row = await this.#find(runId);
    if (!isActive(row.status)) {
      throw new AppError('STATE_CONFLICT', `This run has already ${row.status}.`, {
        run_id: row.run_id,
        status: row.status,
      });
    }
    const job = await this.#deps.runtime.cancel(row.job_id);
    if (job.status === 'cancelled') {
      // Cancelled while queued: the loop never ran, so nothing else will record it.
      return toAgentRunDto((await this.#settle(row, 'cancelled', null)) ?? row);
    }
    return toAgentRunDto(row);
  }

  /** The user's answer to a PermissionRequired event. */
  async resolvePermission(
    input: ResolvePermissionInput,
  ): Promise<{ run_id: string; request_id: string; decision: PermissionDecision }> {
    const { run_id, request_id, decision } = parseInput(resolvePermissionSchema, input);
    const row = await this.#deps.runs.get(run_id);
    if (!row) throw runNotFound(run_id);
    const answer = { run_id, request_id, decision };
    const pending = this.#pending.get(request_id);
    if (pending && pending.runId === run_id) {
      this.#pending.delete(request_id);
      pending.resolve(decision);
      return answer;
    }
    const state = await this.#permissionState(run_id, request_id);
    if (state === 'unknown') {
      throw new AppError('RESOURCE_NOT_FOUND', 'This run has no such permission request.', {
        run_id,
        request_id,
      });
    }
    if (state === 'resolved' || !this.#live.has(run_id) || this.#early.has(request_id)) {
      throw new AppError('STATE_CONFLICT', 'This permission request has already been answered.', {
        run_id,
        request_id,
      });
    }
    // Published but the gate has not started waiting yet: it picks this up.
    this.#early.set(request_id, decision);
    return answer;
  }

  /** The run's events after `after_sequence` (contract §6.1, `Last-Event-ID`). */
  async events(runId: string, query: SequenceQuery = {}): Promise<SequencePage<EventEnvelope>> {
    const row = await this.get(runId);
    const { after_sequence, limit } = parseInput(sequenceQuerySchema, query);
    return this.#deps.events.list(row.run_id, after_sequence, limit);
  }

  /** Missed events, then live ones, then exactly one terminal event. In-thread use; the page uses `events.subscribe`. */
  subscribe(runId: string, afterSequence: number, onEvent: (envelope: EventEnvelope) => void): Subscription {
    const id = parseInput(agentRunIdSchema, runId);
    const { after_sequence } = parseInput(sequenceQuerySchema, { after_sequence: afterSequence });
    return this.#deps.events.subscribe(id, after_sequence, onEvent);
  }

  /** §6.2 trace snapshot. */
  async trace(query: TraceQuery): Promise<AgentTraceSnapshot> {
    const { run_id, after_sequence, limit } = parseInput(agentTraceQuerySchema, query);
    const row = await this.get(run_id);
    try {
      return await traceSnapshot(this.#deps.events, row.run_id, after_sequence, limit);
    } catch (error) {
      // A run cancelled or failed before its loop started has no events yet.
      if (!isAppError(error) || error.code !== 'AGENT_RUN_NOT_FOUND') throw error;
      if (after_sequence !== 0) {
        throw new AppError('TRACE_CURSOR_INVALID', 'The trace cursor lies past the last event of this run.', {
          run_id,
          after_sequence,
        });
      }
      return {
        run_id: row.run_id,
        status: row.status === 'queued' ? 'running' : row.status,
        items: [],
        next_sequence: 0,
        has_more: false,
        summary: { model_calls: 0, tool_calls: 0, duration_ms: 0, token_usage: 0, errors: row.error ? 1 : 0 },
        config_snapshot: {},
      };
    }
  }

  /** The tools every run is offered (the Agent view lists them). */
  async tools(): Promise<AgentToolInfoDto[]> {
    return this.#registry.names().flatMap((name) => {
      const tool = this.#registry.get(name);
      if (!tool) return [];
      return [
        {
          name,
          description: tool.definition.description,
          risk_level: tool.definition.riskLevel,
          requires_permission: tool.definition.requiresPermission,
          permission: tool.permission,
        },
      ];
    });
  }

  /** The agent's changes to a note, newest first; the first undoable one is what "Undo" restores. */
  async noteChanges(noteId: string): Promise<AgentNoteChangeDto[]> {
    const id = parseInput(z.string().min(1, 'note_id is required').max(200), noteId);
    const { versions, noteWriter } = this.#undoDeps();
    const note = await noteWriter.get(id);
    const rows = (await versions.forNote(id)).filter((row) => row.origin === 'agent');
    return rows.map((row) => ({
      version_id: row.version_id,
      note_id: row.note_id,
      run_id: row.run_id,
      tool: row.tool,
      created_at: row.created_at,
      undoable: isUndoable(row, note),
    }));
  }

  /**
   * Puts the note back as it was before the agent's latest change. Refused
   * (STATE_CONFLICT) once the note was edited after that change: undoing
   * would silently drop the newer edit.
   */
  async undoNoteChange(noteId: string): Promise<NoteDto> {
    const id = parseInput(z.string().min(1, 'note_id is required').max(200), noteId);
    const { versions, noteWriter } = this.#undoDeps();
    const note = await noteWriter.get(id);
    const latest = (await versions.forNote(id)).find(
      (row) => row.origin === 'agent' && row.undone_at === null,
    );
    if (!latest) {
      throw new AppError('RESOURCE_NOT_FOUND', 'The agent has no change to undo in this note.', {
        note_id: id,
      });
    }
    if (latest.creation === true) {
      // Putting back the blank note would leave an empty note behind; the note view undoes a
      // creation by moving the note to the trash instead (NoteHistoryService.undoAgentCreation).
      throw new AppError(
        'STATE_CONFLICT',
        'The agent created this note: undo that by moving it to the trash.',
        {
          note_id: id,
          version_id: latest.version_id,
        },
      );
    }
    if (!isUndoable(latest, note)) {
      throw new AppError(
        'STATE_CONFLICT',
        'The note was edited after the agent’s change, so it cannot be undone automatically.',
        { note_id: id, version: note.version, changed_to_version: latest.changed_to_version },
      );
    }
    // A restore in the note's history, so undoing the agent can itself be undone.
    const restored = await noteWriter.update(
      { ...restoredState(latest), expected_version: note.version },
      { origin: 'restore' },
    );
    await versions.update(latest.version_id, { undone_at: toIsoUtc(this.#clock()) });
    await this.#reopenPreviousChange(versions, latest, restored.version);
    return restored;
  }

  /**
   * When the undone change came straight after an earlier agent change (nothing else wrote
   * the note between them), the note now holds exactly what that earlier change produced:
   * it becomes the one "Undo" takes back next, so repeated undos walk back through a run's
   * edits, down to removing a note the agent created. Its counter moves to the restore's.
   */
  async #reopenPreviousChange(
    versions: NoteVersionRepository,
    undone: NoteVersionRow,
    restoredVersion: number,
  ): Promise<void> {
    const previous = (await versions.forNote(undone.note_id)).find(
      (row) => row.origin === 'agent' && row.undone_at === null,
    );
    if (previous && previous.changed_to_version === undone.note_version) {
      await versions.update(previous.version_id, { changed_to_version: restoredVersion });
    }
  }

  #undoDeps(): { versions: NoteVersionRepository; noteWriter: Pick<NotesService, 'get' | 'update'> } {
    const { versions, noteWriter } = this.#deps;
    if (!versions || !noteWriter) {
      throw new AppError('NOT_IMPLEMENTED', 'Note versions are not kept here.');
    }
    return { versions, noteWriter };
  }

  /** The names of the tools the user turned off; the Agent view leaves them out of its runs' `allowed_tools`. */
  disabledTools(): Promise<string[]> {
    return this.#toolChoice.disabled();
  }

  /** Turns one tool on or off for later runs; returns the tools that are off now. */
  async setToolEnabled(input: { tool: string; enabled: boolean }): Promise<string[]> {
    const { tool, enabled } = parseInput(
      z.object({ tool: z.string().min(1, 'tool is required').max(200), enabled: z.boolean() }),
      input,
      'This tool choice is not valid.',
    );
    // Turning on works for any name (a plugin's tool that is gone); turning off needs one that exists.
    if (!enabled && !this.#registry.get(tool)) {
      throw new AppError('INVALID_REQUEST', `Unknown tool: ${tool}.`, { tools: [tool] });
    }
    // One change at a time: two quick switches would otherwise both read the old list and the
    // second write would undo the first.
    const change = this.#toolChoiceChanges.then(async () => {
      const disabled = (await this.#toolChoice.disabled()).filter((name) => name !== tool);
      if (!enabled) disabled.push(tool);
      await this.#toolChoice.setDisabled(disabled);
      return disabled;
    });
    this.#toolChoiceChanges = change.catch(() => undefined);
    return change;
  }

  grants(): Promise<PermissionGrant[]> {
    return this.#deps.grants.list();
  }

  async revokeGrant(permission: string): Promise<void> {
    const name = parseInput(z.string().min(1, 'permission is required'), permission);
    if (!(await this.#deps.grants.delete(name))) {
      throw new AppError('RESOURCE_NOT_FOUND', 'No grant is stored for this permission.', {
        permission: name,
      });
    }
  }

  memories(): Promise<MetonaMemoryItem[]> {
    return this.#deps.memory.list();
  }

  async deleteMemory(id: string): Promise<void> {
    const memoryId = parseInput(z.string().min(1, 'id is required'), id);
    if (!(await this.#deps.memory.delete(memoryId))) {
      throw new AppError('RESOURCE_NOT_FOUND', 'This memory does not exist.', { id: memoryId });
    }
  }

  /**
   * Start-up: after `JobRuntime.recover()` failed the jobs a closed tab left
   * running, their runs get a RunFailed event and a failed row, so no run stays
   * `running` forever. Runs whose jobs were queued again are left to run.
   */
  async recover(): Promise<{ failed: number }> {
    let failed = 0;
    for (const row of await this.#deps.runs.listByStatus(['queued', 'running'])) {
      const after = await this.#reconcile(row);
      if (after.status === 'failed') failed++;
    }
    return { failed };
  }

  // -------------------------------------------------------------------------
  // The job body
  // -------------------------------------------------------------------------

  async #execute(context: JobContext<JobInput>): Promise<unknown> {
    const input = jobInputSchema.parse(context.input);
    const runId = input.run_id;
    const row = await this.#deps.runs.get(runId);
    if (!row) throw runNotFound(runId);
    await this.#deps.runs.update(runId, { status: 'running', updated_at: toIsoUtc(this.#clock()) });
    this.#live.add(runId);
    let result: AgentRunResult;
    try {
      const { adapter, model } = await this.#adapters({ provider: input.provider, model: input.model });
      const redactor = await this.#redactor();
      const permissions = new PermissionGate({
        prompt: this.#prompt(),
        grants: this.#deps.grants,
        redactor,
        clock: this.#clock,
      });
      const loop = new AgentLoop({
        registry: this.#registry,
        events: this.#deps.events,
        permissions,
        memory: this.#deps.memory,
        artifacts: this.#deps.artifacts,
        redactor,
        clock: this.#clock,
      });
      const fallback = (adapter as { fallbackRef?: { provider_id: string; model: string } | null })
        .fallbackRef;
      // The row first, then the terminal event: whoever sees RunCompleted reads the final run.
      let recorded: AgentRunResult['status'] | undefined;
      let settledElsewhere: AgentRunRow['status'] | undefined;
      const record = async (final: Readonly<AgentRunResult>): Promise<void> => {
        if (recorded === undefined) {
          const current = await this.#deps.runs.get(runId);
          // Settled meanwhile by start-up recovery in another tab: that answer stands.
          if (current && !isActive(current.status)) {
            settledElsewhere = current.status;
            return;
          }
        }
        const now = toIsoUtc(this.#clock());
        await this.#deps.runs.update(runId, {
          status: final.status,
          updated_at: now,
          completed_at: now,
          output: final.output === undefined ? null : redactor.redactText(final.output),
          error: final.error
            ? { code: final.error.code, message: redactor.redactText(final.error.message) }
            : null,
          steps: final.steps,
          tool_calls: final.tool_calls,
          total_tokens: final.token_usage.total_tokens,
        });
        recorded = final.status;
        if (final.status === 'completed' && final.output) {
          // A finished run becomes an episodic memory later chats and runs can recall.
          const task = input.prompt.replace(/\s+/g, ' ').trim().slice(0, 160);
          const answer = redactor.redactText(final.output).replace(/\s+/g, ' ').trim().slice(0, 800);
          await this.#deps.memory
            .put({
              id: `mem_${runId}`,
              type: 'episodic',
              content: `Agent run "${task}": ${answer}`,
              source: 'agent_thought',
              importance: 0.4,
              sessionId: runId,
              createdAt: this.#clock(),
            })
            .catch((error: unknown) => console.error('run memory could not be stored', error));
        }
      };
      result = await loop.run({
        runId,
        sessionId: runId,
        input: input.prompt,
        adapter,
        model,
        ...(fallback && { fallback }),
        ...(input.max_steps !== undefined && { maxSteps: input.max_steps }),
        ...(input.token_budget !== undefined && { tokenBudget: input.token_budget }),
        ...(input.allowed_tools !== undefined && { allowedTools: input.allowed_tools }),
        timeoutMs: this.#deps.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        metadata: { job_id: context.jobId },
        signal: context.signal,
        beforeTerminal: record,
      });
      if (settledElsewhere !== undefined) return { run_id: runId, status: settledElsewhere };
      // The hook failed, or the terminal event could not be written and the run failed after all.
      if (recorded !== result.status) await record(result);
    } catch (error) {
      // Before the loop (no adapter) or a storage failure: the row says why.
      const failure = isAppError(error)
        ? { code: error.code, message: error.message }
        : { code: 'INTERNAL_ERROR' as const, message: 'The agent could not start.' };
      await this.#settle({ ...row, status: 'running' }, 'failed', failure);
      throw error;
    } finally {
      this.#live.delete(runId);
      for (const [requestId, pending] of this.#pending)
        if (pending.runId === runId) this.#pending.delete(requestId);
    }
    if (result.status === 'cancelled') throw new DOMException('The run was cancelled.', 'AbortError');
    if (result.status === 'failed') {
      throw new AppError(
        result.error?.code ?? 'JOB_FAILED',
        result.error?.message ?? 'The agent run failed.',
        {
          run_id: runId,
        },
      );
    }
    return {
      run_id: runId,
      steps: result.steps,
      tool_calls: result.tool_calls,
      last_sequence: result.last_sequence,
    };
  }

  /** Waits for `resolvePermission`; the UI learns of the request from the PermissionRequired event. */
  #prompt(): PermissionPrompt {
    return {
      ask: (request: PermissionRequest, signal: AbortSignal) =>
        new Promise<PermissionDecision>((resolve, reject) => {
          const early = this.#early.get(request.request_id);
          if (early !== undefined) {
            this.#early.delete(request.request_id);
            resolve(early);
            return;
          }
          // The tool may have gone between the request's event and this wait.
          if (!this.#registry.get(request.tool)) {
            reject(new PermissionWithdrawnError(request.tool));
            return;
          }
          this.#pending.set(request.request_id, {
            runId: request.run_id,
            tool: request.tool,
            resolve,
            withdraw: () => reject(new PermissionWithdrawnError(request.tool)),
          });
          signal.addEventListener('abort', () => this.#pending.delete(request.request_id), { once: true });
        }),
    };
  }

  async #permissionState(runId: string, requestId: string): Promise<'unknown' | 'open' | 'resolved'> {
    let state: 'unknown' | 'open' | 'resolved' = 'unknown';
    for (let cursor = 0; ;) {
      const page = await this.#deps.events.list(runId, cursor, 500);
      for (const envelope of page.items) {
        const data = envelope.data as { request_id?: unknown } | null;
        if (data?.request_id !== requestId) continue;
        if (envelope.event === 'PermissionRequired') state = 'open';
        if (envelope.event === 'PermissionResolved') return 'resolved';
      }
      cursor = page.next_sequence;
      if (!page.has_more) return state;
    }
  }

  async #redactor(): Promise<SecretRedactor> {
    const secrets = this.#deps.secrets ? await this.#deps.secrets().catch(() => []) : [];
    return new SecretRedactor(secrets);
  }

  /** A row still `queued`/`running` whose job has ended (a closed tab, a crash) is settled now. */
  async #reconcile(row: AgentRunRow): Promise<AgentRunRow> {
    if (!isActive(row.status) || this.#live.has(row.run_id) || row.job_id === '') return row;
    let job;
    try {
      job = await this.#deps.runtime.get(row.job_id);
    } catch {
      job = undefined;
    }
    if (job && (job.status === 'queued' || job.status === 'running')) return row;
    if (job?.status === 'cancelled') return (await this.#settle(row, 'cancelled', null)) ?? row;
    const failure = job?.error
      ? { code: job.error.code, message: job.error.message }
      : { code: 'JOB_INTERRUPTED' as const, message: 'The app was closed while this run was running.' };
    return (await this.#settle(row, job?.status === 'completed' ? 'completed' : 'failed', failure)) ?? row;
  }

  /** Ends a run the loop did not end: the row and, when the trace has begun, its terminal event. */
  async #settle(
    row: AgentRunRow,
    status: 'completed' | 'failed' | 'cancelled',
    failure: AgentRunRow['error'],
  ): Promise<AgentRunRow | undefined> {
    const log = this.#deps.events;
    const first = (await log.list(row.run_id, 0, 1)).items[0];
    // The row first, then the terminal event, as in `#execute`.
    const now = toIsoUtc(this.#clock());
    const updated = await this.#deps.runs.update(row.run_id, {
      status,
      updated_at: now,
      completed_at: now,
      error: status === 'failed' ? failure : null,
    });
    if (first && status !== 'completed' && !(await log.isTerminated(row.run_id))) {
      const base = {
        steps: 0,
        duration_ms: Math.max(0, this.#clock() - Date.parse(first.timestamp)),
        token_usage: { input_tokens: 0, output_tokens: 0, total_tokens: row.total_tokens },
      };
      try {
        if (status === 'cancelled')
          await log.publish(row.run_id, 'RunCancelled', { reason: 'user', ...base });
        else
          await log.publish(row.run_id, 'RunFailed', {
            code: failure?.code ?? 'JOB_INTERRUPTED',
            message: failure?.message ?? 'The run stopped unexpectedly.',
            reason: 'internal',
            ...base,
          });
      } catch (error) {
        // Another writer ended it first (STATE_CONFLICT): its event stands.
        if (!isAppError(error) || error.code !== 'STATE_CONFLICT') throw error;
      }
    }
    return updated;
  }
}

export interface CreateAgentServiceOptions {
  db: NotesAgentDatabase;
  events: EventLog;
  runtime: JobRuntime;
  notes: NotesService;
  search: SearchService;
  /** Its secret values are scrubbed from every trace. */
  vault?: SecretsVault;
  adapters?: AgentAdapterFactory;
  extraTools?: AgentToolSpec[];
  liveTools?: LiveToolSource;
  timeoutMs?: number;
  clock?: Clock;
}

/**
 * The agent over the app's database and services (the composition root calls
 * this once, before `recover()`): Dexie repositories for runs, artifacts,
 * grants and memories, and ports over the notes and search services.
 */
export function createAgentService(options: CreateAgentServiceOptions): AgentService {
  const { db, vault, ...rest } = options;
  const versions = new NoteVersionRepository(db);
  return new AgentService({
    ...rest,
    runs: new AgentRunRepository(db),
    artifacts: new DexieArtifactStore(db, options.clock),
    grants: new DexieGrantStore(db),
    memory: new DexieMemoryStore(db),
    toolChoice: settingsToolChoiceStore(new SettingsRepository(db)),
    // Agent writes keep their own version through the notes service's history.
    notes: new AppNotesPort(options.notes, options.search),
    versions,
    noteWriter: options.notes,
    search: new AppSearchPort(options.search),
    ...(vault && { secrets: vaultSecretValues(vault) }),
  });
}

import { z } from 'zod';
import {
  AppError,
  benchmarkNoteBlocksInputSchema,
  createAgentBenchmarkSchema,
  createDatasetFromNotesSchema,
  createRagBenchmarkSchema,
  isAbortError,
  listBenchmarkRunsSchema,
  parseInput,
  proposalIdSchema,
  proposeQuestionsSchema,
  sequenceQuerySchema,
  toIsoUtc,
  type AgentCaseResult,
  type BenchmarkCaseResult,
  type BenchmarkDatasetDto,
  type BenchmarkDatasetFile,
  type BenchmarkEmbeddingSnapshot,
  type BenchmarkKind,
  type BenchmarkNoteBlocksDto,
  type BenchmarkNoteBlocksInput,
  type BenchmarkNotesDatasetDto,
  type BenchmarkRetrievalSettings,
  type BenchmarkReportDto,
  type BenchmarkSearchMode,
  type BenchmarkRunDto,
  type CreateAgentBenchmarkInput,
  type CreateDatasetFromNotesInput,
  type CreateRagBenchmarkInput,
  type EventEnvelope,
  type JobDto,
  type ListBenchmarkRunsInput,
  type OffsetPage,
  type ProposalCancelDto,
  type ProposeQuestionsInput,
  type ProposedQuestionDto,
  type RagCaseResult,
  type RagDatasetFile,
  type SequencePage,
  type SequenceQuery,
} from '../contracts';
import { MAX_SEARCH_QUERY_LENGTH } from '../contracts/search-schemas';
import {
  BUILTIN_DATASET_IDS,
  CASE_RESULT_EVENT,
  CITATION_SKIPPED_NO_MODEL,
  ISOLATED_DATABASE_PREFIX,
  IsolatedIndex,
  agentMetrics,
  agentSnapshot,
  benchmarkProfile,
  builtinDataset,
  isBuiltinDataset,
  caseResultsOf,
  compareReports,
  configInvalid,
  datasetChanged,
  datasetFromNotes,
  datasetHash,
  describeDataset,
  describeEnvironment,
  embeddingDiffers,
  newRunRow,
  pageOf,
  parseDatasetText,
  probeEnvironment,
  runRagCases,
  ragMetricsByMode,
  ragSnapshot,
  reportFile,
  resolveRetrieval,
  runInOrder,
  sameModel,
  toRunDto,
  type BenchmarkEnvironment,
  type RunComparison,
} from '../benchmarks';
import { AgentSandbox, notAgentDataset, runAgentCase } from './benchmark-agent';
import type { AnswerModel, BenchmarkAnswers } from './benchmark-answers';
import { engineBenchmarkEmbedders, type BenchmarkEmbedders } from './benchmark-embedders';
import { noteBlocksForDataset, notebookForDataset } from './benchmark-notebook';
import { proposeQuestions, sectionsOf } from './benchmark-questions';
import { demoAdapterFactory, type AgentAdapterFactory } from './agent-service';
import type { EventLog } from '../core/event-log';
import { newId, systemClock, type Clock } from '../core/ids';
import type { JobContext, JobRuntime } from '../core/job-runtime';
import { NotesAgentDatabase, type NotesRepository } from '../db';
import { BenchmarkRepository } from '../db/benchmark-repository';
import type { BenchmarkRunRow } from '../db/schema';
import { DEFAULT_RETRIEVAL_PROFILE, HashEmbedder, type Embedder, type Reranker } from '../retrieval';
import type { EmbedderPair } from '../retrieval/search-indexer';
import { FULL_TEXT_SNAPSHOT_VERSION } from '../retrieval/full-text-index';
import { VECTOR_BUFFER_VERSION } from '../retrieval/vector-index';
import { SearchService } from './search-service';

export { CASE_RESULT_EVENT, ISOLATED_DATABASE_PREFIX, type BenchmarkEnvironment };

export const RAG_BENCHMARK_JOB_KIND = 'benchmark.rag';
export const AGENT_BENCHMARK_JOB_KIND = 'benchmark.agent';
/** Per-case progress is persisted every this many cases; every case still gets its event. */
const PROGRESS_EVERY = 10;

const runIdSchema = z.string().min(1, 'run_id is required').max(200);
const datasetIdSchema = z.string().min(1, 'dataset_id is required').max(200);

export interface BenchmarkServiceOptions {
  /** The user's database: runs and imported datasets are kept here, nothing else is written. */
  db: NotesAgentDatabase;
  runtime: JobRuntime;
  events: EventLog;
  /** The user's notes, read (never written) to build "benchmark my notes" datasets. */
  notes: NotesRepository;
  /** The embedder runs index with (the app's current one). */
  embedder: () => Embedder | Promise<Embedder>;
  /** The reranker in use, if any; asked once per run. */
  reranker?: () => Reranker | undefined | Promise<Reranker | undefined>;
  /**
   * Opens a run's own database; the default names it after the run, apart from
   * the user's. An agent run with concurrency N opens one per lane, the first
   * named by the run id, the others `<run_id>.lane-<n>`.
   */
  openIsolated?: (runId: string) => NotesAgentDatabase;
  /** Latency clock in milliseconds (performance.now by default). */
  latencyClock?: () => number;
  clock?: Clock;
  environment?: () => BenchmarkEnvironment;
  /** How RAG runs reach the model that answers for `citation_hit_rate`; without it none can be chosen. */
  answers?: BenchmarkAnswers;
  /** The models agent runs may use; the offline demo ("mock") provider by default. */
  agentAdapters?: AgentAdapterFactory;
  /**
   * The embedding models a RAG run may compare (`embedding_models`), loaded in
   * the benchmark's own engine; without it only hash-v1 can be named.
   */
  embeddingModels?: BenchmarkEmbedders;
}

interface RunJobInput {
  run_id: string;
}

/**
 * Benchmarks (§9): datasets, RAG runs as jobs, their events, reports and
 * cancel. The CLI, the tests and the report page all call this service; every
 * metric comes from `src/benchmarks/metrics`.
 */
export class BenchmarkService {
  readonly #options: BenchmarkServiceOptions;
  readonly #repository: BenchmarkRepository;
  readonly #clock: Clock;
  /** Proposals still waiting on their model, by the caller's id, so they can be cancelled. */
  readonly #proposals = new Map<string, AbortController>();

  constructor(options: BenchmarkServiceOptions) {
    this.#options = options;
    this.#repository = new BenchmarkRepository(options.db);
    this.#clock = options.clock ?? systemClock;
    options.runtime.register<RunJobInput, { cases: number }>({
      kind: RAG_BENCHMARK_JOB_KIND,
      concurrency: 1,
      run: (context) => this.#guarded(context, (row) => this.#runRag(context, row)),
    });
    options.runtime.register<RunJobInput, { cases: number }>({
      kind: AGENT_BENCHMARK_JOB_KIND,
      concurrency: 1,
      run: (context) => this.#guarded(context, (row) => this.#runAgent(context, row)),
    });
  }

  // ---- datasets (§9.1–9.3) ----

  async listDatasets(input: { kind?: BenchmarkKind } = {}): Promise<{ items: BenchmarkDatasetDto[] }> {
    const { kind } = parseInput(z.object({ kind: z.enum(['rag', 'agent']).optional() }).strict(), input);
    const builtin = await Promise.all(
      BUILTIN_DATASET_IDS.map(async (id) => describeDataset((await builtinDataset(id))!, 'builtin')),
    );
    const imported = await Promise.all(
      (await this.#repository.listDatasets()).map((row) => describeDataset(row.dataset, 'imported')),
    );
    return { items: [...builtin, ...imported].filter((item) => kind === undefined || item.kind === kind) };
  }

  /** The whole dataset (cases and notes), for the report page's case view. */
  async getDataset(datasetId: string): Promise<BenchmarkDatasetFile> {
    return this.#dataset(parseInput(datasetIdSchema, datasetId));
  }

  /**
   * The titles of a RAG dataset's notes, to name retrieved blocks in the
   * report: a dataset built from the notebook holds whole notes, which the
   * page need not receive for that. An agent dataset has none.
   */
  async noteTitles(datasetId: string): Promise<{ note_id: string; title: string }[]> {
    const dataset = await this.#dataset(parseInput(datasetIdSchema, datasetId));
    return dataset.kind === 'rag' ? dataset.notes.map(({ note_id, title }) => ({ note_id, title })) : [];
  }

  /**
   * Registers a dataset from a file's text. It is validated whole before
   * anything is stored; its id must not be a shipped one. Importing an id again
   * replaces that dataset (runs keep the hash they ran on).
   */
  async importDataset(text: string): Promise<BenchmarkDatasetDto> {
    return this.#register(parseDatasetText(text));
  }

  /**
   * "Benchmark my notes": a RAG dataset whose corpus is a copy of the user's
   * live notes (block ids kept) and whose cases are the blocks they picked
   * with the questions they wrote. Runs search the copy, never the notebook.
   * The notes are read a page at a time and each is copied up to
   * `DATASET_NOTE_CHARS` (see `notebookForDataset`); the notes copied only in
   * part come back in `cut_notes`, so the user is told, not left to find out.
   */
  async createDatasetFromNotes(input: CreateDatasetFromNotesInput): Promise<BenchmarkNotesDatasetDto> {
    const request = parseInput(createDatasetFromNotesSchema, input, 'This dataset is not valid.');
    const repository = this.#options.notes;
    const picked = await repository.blocksById(request.cases.map((entry) => entry.block_id));
    const { notes, cut } = await notebookForDataset(repository, picked);
    const dataset = await this.#register(datasetFromNotes(request, notes, picked));
    return { ...dataset, cut_notes: cut };
  }

  /**
   * "Benchmark my notes": the blocks of one note a case can name, for the
   * picker — those a dataset made now keeps (a note over
   * `MAX_BENCHMARK_NOTE_BODY` only up to its last whole block within it),
   * the first `limit` of them, each by id and a short label, with how many
   * the dataset keeps and the note has. A huge note costs a bounded read:
   * never its body, never its blocks past the cut (see `noteBlocksForDataset`).
   */
  async noteBlocks(input: BenchmarkNoteBlocksInput): Promise<BenchmarkNoteBlocksDto> {
    const request = parseInput(benchmarkNoteBlocksInputSchema, input, 'This note cannot be listed.');
    const blocks = await noteBlocksForDataset(this.#options.notes, request.note_id, { limit: request.limit });
    if (!blocks) {
      throw new AppError('RESOURCE_NOT_FOUND', 'This note does not exist or is in the trash.', {
        note_id: request.note_id,
      });
    }
    return blocks;
  }

  /**
   * "Benchmark my notes": the chosen model proposes a question for each
   * heading with content under it (the case's block is the section's first).
   * Nothing is stored: the user accepts or edits them into a dataset. Only
   * the sections' text goes to that model.
   */
  async proposeQuestions(
    input: ProposeQuestionsInput,
    signal?: AbortSignal,
  ): Promise<{ items: ProposedQuestionDto[] }> {
    const parsed = proposeQuestionsSchema.safeParse(input);
    if (!parsed.success) throw configInvalid(parsed.error);
    const request = parsed.data;
    const id = request.proposal_id;
    if (id !== undefined && this.#proposals.has(id)) {
      throw new AppError('STATE_CONFLICT', 'A proposal with this id is still running.', { proposal_id: id });
    }
    // Comlink cannot carry a signal: a caller across the worker cancels by id instead.
    const controller = new AbortController();
    const onAbort = (): void => controller.abort(signal?.reason);
    if (signal?.aborted) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    if (id !== undefined) this.#proposals.set(id, controller);
    try {
      await this.#checkAgentModel(request.provider_id, request.model);
      const sections = await sectionsOf(this.#options.notes, request.note_ids, request.limit);
      controller.signal.throwIfAborted();
      const items = await proposeQuestions(
        this.#agentAdapters,
        sections,
        request,
        this.#clock,
        controller.signal,
      );
      // An answer that arrived as the user cancelled is dropped: they asked for nothing.
      controller.signal.throwIfAborted();
      return { items };
    } catch (error) {
      if (!controller.signal.aborted) throw error;
      throw new AppError(
        'JOB_CANCELLED',
        'The question proposal was cancelled.',
        { proposal_id: id ?? null },
        { cause: error },
      );
    } finally {
      signal?.removeEventListener('abort', onAbort);
      if (id !== undefined && this.#proposals.get(id) === controller) this.#proposals.delete(id);
    }
  }

  /**
   * Stops a proposal still waiting on its model. Accepted means the request
   * is aborted; the proposal's own call then fails with JOB_CANCELLED.
   */
  async cancelProposal(proposalId: string): Promise<ProposalCancelDto> {
    const id = parseInput(proposalIdSchema, proposalId, 'This proposal id is not valid.');
    const controller = this.#proposals.get(id);
    if (!controller) {
      throw new AppError('RESOURCE_NOT_FOUND', 'No proposal with this id is running.', { proposal_id: id });
    }
    if (controller.signal.aborted) {
      throw new AppError('STATE_CONFLICT', 'This proposal is already being cancelled.', {
        proposal_id: id,
      });
    }
    controller.abort(new DOMException('The question proposal was cancelled.', 'AbortError'));
    return { proposal_id: id, status: 'cancelling' };
  }

  /** The provider must be usable now; its own code is kept as the cause. */
  async #checkAgentModel(providerId: string, model: string): Promise<void> {
    try {
      await this.#agentAdapters({ provider: providerId, model });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      throw new AppError('BENCHMARK_CONFIG_INVALID', error.message, {
        field: 'provider_id',
        cause: error.code,
      });
    }
  }

  async #register(dataset: BenchmarkDatasetFile): Promise<BenchmarkDatasetDto> {
    if (isBuiltinDataset(dataset.dataset_id)) {
      throw new AppError(
        'BENCHMARK_DATASET_INVALID',
        `The id ${dataset.dataset_id} belongs to a shipped dataset.`,
        {
          case_id: null,
          field: 'dataset_id',
        },
      );
    }
    await this.#repository.putDataset({
      dataset_id: dataset.dataset_id,
      kind: dataset.kind,
      content_hash: await datasetHash(dataset),
      created_at: toIsoUtc(this.#clock()),
      dataset,
    });
    return describeDataset(dataset, 'imported');
  }

  async #dataset(datasetId: string): Promise<BenchmarkDatasetFile> {
    const dataset =
      (await builtinDataset(datasetId)) ?? (await this.#repository.getDataset(datasetId))?.dataset;
    if (!dataset) {
      throw new AppError('BENCHMARK_DATASET_NOT_FOUND', `There is no dataset ${datasetId}.`, {
        dataset_id: datasetId,
      });
    }
    return dataset;
  }

  // ---- runs (§9.4, §9.6) ----

  async createRagRun(input: CreateRagBenchmarkInput): Promise<BenchmarkRunDto> {
    const parsed = createRagBenchmarkSchema.safeParse(input);
    if (!parsed.success) throw configInvalid(parsed.error);
    const request = parsed.data;
    const dataset = await this.#dataset(request.dataset_id);
    if (dataset.kind !== 'rag') {
      throw new AppError('BENCHMARK_CONFIG_INVALID', `${dataset.dataset_id} is not a RAG dataset.`, {
        field: 'dataset_id',
      });
    }
    if (request.answer_model !== null) await this.#checkAnswerModel(request.answer_model);
    const retrieval = resolveRetrieval(request.retrieval);
    const embedder = await this.#options.embedder();
    const usesVectors = request.modes.some((mode) => mode !== 'fts');
    if (usesVectors && request.embedding && embeddingDiffers(request.embedding, embedder.info)) {
      const info = embedder.info;
      throw new AppError(
        'BENCHMARK_INDEX_INCOMPATIBLE',
        `The index is built with ${info.model_id} (${info.dimension} dimensions), not the requested ${request.embedding.model_id}.`,
        { requested: request.embedding, index: info },
      );
    }
    const compared = request.embedding_models?.map((modelId) => this.#describeEmbedding(modelId));
    const reranker = retrieval.rerank ? await this.#options.reranker?.() : undefined;
    const snapshot = ragSnapshot({
      dataset,
      hash: await datasetHash(dataset),
      modes: request.modes,
      repeat: request.repeat,
      retrieval,
      // A comparing run's full text searches the first model's index: that is its `embedding`.
      embedding: compared?.[0] ?? embedder.info,
      reranker: reranker?.info ?? null,
      indexVersion: { full_text: FULL_TEXT_SNAPSHOT_VERSION, vectors: VECTOR_BUFFER_VERSION },
      profile: {
        profile_id: DEFAULT_RETRIEVAL_PROFILE.profile_id,
        version: DEFAULT_RETRIEVAL_PROFILE.version,
      },
      answerModel: request.answer_model,
      concurrency: request.concurrency,
      environment: this.#environment(embedder),
    });
    if (compared) snapshot.embedding_models = compared;
    const row = newRunRow(newId('benchmark'), 'rag', snapshot, request.metadata, toIsoUtc(this.#clock()));
    return this.#start(row, RAG_BENCHMARK_JOB_KIND);
  }

  /** A model a comparing run names must be one this device can load (whether it is downloaded shows when it loads). */
  #describeEmbedding(modelId: string): BenchmarkEmbeddingSnapshot {
    const described = this.#embedders.describe(modelId);
    if (!described) {
      throw new AppError(
        'EMBEDDING_MODEL_UNAVAILABLE',
        `There is no embedding model "${modelId}" that can be benchmarked here.`,
        { model_id: modelId, reason: 'unknown_model', field: 'embedding_models' },
      );
    }
    return described;
  }

  get #embedders(): BenchmarkEmbedders {
    return this.#options.embeddingModels ?? engineBenchmarkEmbedders({ remoteHost: async () => null });
  }

  /** The answer model must be usable now, not only when the job starts. */
  async #checkAnswerModel(model: AnswerModel): Promise<void> {
    const answers = this.#options.answers;
    if (!answers) {
      throw new AppError('BENCHMARK_CONFIG_INVALID', 'No answer model can be used here.', {
        field: 'answer_model',
      });
    }
    try {
      await answers.check(model);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      throw new AppError('BENCHMARK_CONFIG_INVALID', error.message, {
        field: 'answer_model.provider_id',
        cause: error.code,
      });
    }
  }

  #environment(embedder: Embedder): BenchmarkEnvironment {
    return this.#options.environment?.() ?? describeEnvironment(probeEnvironment(), embedder.info.model_id);
  }

  /** The row goes first, so the job always finds it; the job id is recorded as soon as it exists. */
  async #start(row: BenchmarkRunRow, kind: string): Promise<BenchmarkRunDto> {
    await this.#repository.putRun(row);
    const job = await this.#options.runtime.create(kind, { run_id: row.run_id });
    row.job_id = job.job_id;
    await this.#repository.updateRun(row.run_id, { job_id: job.job_id });
    return toRunDto(row, job);
  }

  /**
   * §9.5: every case runs through the agent runtime on the chosen model, in
   * the run's own database; the provider must be available now, not only
   * when the job starts.
   */
  async createAgentRun(input: CreateAgentBenchmarkInput): Promise<BenchmarkRunDto> {
    const parsed = createAgentBenchmarkSchema.safeParse(input);
    if (!parsed.success) throw configInvalid(parsed.error);
    const request = parsed.data;
    const dataset = await this.#dataset(request.dataset_id);
    if (dataset.kind !== 'agent') throw notAgentDataset(dataset.dataset_id);
    if (request.skill_id !== null) {
      // The agent runtime has no skills, so no skill id can name anything: refused, never ignored.
      throw new AppError(
        'BENCHMARK_CONFIG_INVALID',
        'This agent runtime has no skills: skill_id must be null.',
        { field: 'skill_id', skill_id: request.skill_id },
      );
    }
    await this.#checkAgentModel(request.provider_id, request.model);
    const embedder = await this.#options.embedder();
    const snapshot = agentSnapshot({
      dataset,
      hash: await datasetHash(dataset),
      providerId: request.provider_id,
      model: request.model,
      maxSteps: request.max_steps,
      tokenBudget: request.token_budget,
      concurrency: request.concurrency,
      embedding: embedder.info,
      environment: this.#environment(embedder),
    });
    const row = newRunRow(newId('benchmark'), 'agent', snapshot, request.metadata, toIsoUtc(this.#clock()));
    return this.#start(row, AGENT_BENCHMARK_JOB_KIND);
  }

  /** The trace events of one agent case (kept with the run: the case's own database is gone). */
  async caseTrace(runId: string, caseId: string): Promise<EventEnvelope[]> {
    const row = await this.#row(parseInput(runIdSchema, runId));
    const trace = row.traces?.[parseInput(z.string().min(1, 'case_id is required'), caseId)];
    if (!trace) {
      throw new AppError('RESOURCE_NOT_FOUND', 'This run has no trace for that case.', {
        run_id: row.run_id,
        case_id: caseId,
      });
    }
    return trace;
  }

  get #agentAdapters(): AgentAdapterFactory {
    return this.#options.agentAdapters ?? demoAdapterFactory();
  }

  async list(input: ListBenchmarkRunsInput = {}): Promise<OffsetPage<BenchmarkRunDto>> {
    const query = parseInput(listBenchmarkRunsSchema, input, 'This run list query is not valid.');
    const rows = await this.#repository.listRuns(query.kind);
    const runs: BenchmarkRunDto[] = [];
    for (const row of rows) {
      const run = toRunDto(row, await this.#job(row));
      if (query.status === undefined || run.status === query.status) runs.push(run);
    }
    return pageOf(runs, query.offset, query.limit);
  }

  async get(runId: string): Promise<BenchmarkRunDto> {
    const row = await this.#row(parseInput(runIdSchema, runId));
    return toRunDto(row, await this.#job(row));
  }

  /** Lifecycle events and one `CaseResult` per case, resumable by sequence (§4.3). */
  async events(runId: string, query: SequenceQuery = {}): Promise<SequencePage<EventEnvelope>> {
    const row = await this.#row(parseInput(runIdSchema, runId));
    const { after_sequence, limit } = parseInput(sequenceQuerySchema, query);
    return this.#options.events.list(row.job_id, after_sequence, limit);
  }

  /** Accepted means recorded; the run's `Cancelled` event is the final answer. */
  async cancel(runId: string): Promise<BenchmarkRunDto> {
    const row = await this.#row(parseInput(runIdSchema, runId));
    const job = await this.#options.runtime.cancel(row.job_id);
    return toRunDto(row, job);
  }

  /**
   * The full report: the run and every case, failed ones included. A run that
   * did not complete reports the cases it finished (from its events).
   */
  async report(runId: string): Promise<BenchmarkReportDto> {
    const row = await this.#row(parseInput(runIdSchema, runId));
    const run = toRunDto(row, await this.#job(row));
    return { run, cases: row.cases ?? (await this.#casesFromEvents(row.job_id)) };
  }

  /** Case by case, what got better or worse from `baselineRunId` to `candidateRunId`. */
  async compare(baselineRunId: string, candidateRunId: string): Promise<RunComparison> {
    const [baseline, candidate] = await Promise.all([
      this.report(baselineRunId),
      this.report(candidateRunId),
    ]);
    if (baseline.run.kind !== candidate.run.kind) {
      throw new AppError('BENCHMARK_CONFIG_INVALID', 'Only runs of the same kind can be compared.', {
        field: 'run_id',
      });
    }
    return compareReports(baseline, candidate);
  }

  /** The report as a file's text: the whole report as JSON, or the per-case table as CSV. */
  async exportReport(
    runId: string,
    format: 'json' | 'csv',
  ): Promise<{ filename: string; mime_type: string; text: string }> {
    const kind = parseInput(z.enum(['json', 'csv']), format, 'The export format must be json or csv.');
    return reportFile(await this.report(runId), kind);
  }

  async #casesFromEvents(jobId: string): Promise<BenchmarkCaseResult[]> {
    const cases: BenchmarkCaseResult[] = [];
    let after = 0;
    for (;;) {
      const page = await this.#options.events.list(jobId, after, 500);
      cases.push(...caseResultsOf(page.items));
      if (!page.has_more) return cases;
      after = page.next_sequence;
    }
  }

  async #row(runId: string): Promise<BenchmarkRunRow> {
    const row = await this.#repository.getRun(runId);
    if (!row)
      throw new AppError('BENCHMARK_RUN_NOT_FOUND', 'This benchmark run does not exist.', { run_id: runId });
    return row;
  }

  #job(row: BenchmarkRunRow): Promise<JobDto> {
    return this.#options.runtime.get(row.job_id);
  }

  // ---- the jobs ----

  #isolatedDatabase(runId: string): NotesAgentDatabase {
    return (
      this.#options.openIsolated?.(runId) ?? new NotesAgentDatabase(`${ISOLATED_DATABASE_PREFIX}${runId}`)
    );
  }

  get #latencyClock(): () => number {
    return this.#options.latencyClock ?? (() => performance.now());
  }

  /** Runs a job's body; an unexpected failure becomes BENCHMARK_RUN_FAILED, cancels stay cancels. */
  async #guarded<T>(
    context: JobContext<RunJobInput>,
    body: (row: BenchmarkRunRow) => Promise<T>,
  ): Promise<T> {
    const row = await this.#row(context.input.run_id);
    try {
      return await body(row);
    } catch (error) {
      if (isAbortError(error) || context.signal.aborted || error instanceof AppError) throw error;
      throw new AppError(
        'BENCHMARK_RUN_FAILED',
        'The benchmark run failed.',
        { run_id: row.run_id },
        { cause: error },
      );
    }
  }

  async #runAgent(context: JobContext<RunJobInput>, row: BenchmarkRunRow): Promise<{ cases: number }> {
    const dataset = await this.#dataset(row.dataset_id);
    if (dataset.kind !== 'agent' || (await datasetHash(dataset)) !== row.dataset_hash) {
      throw datasetChanged(row.dataset_id);
    }
    const snapshot = row.config_snapshot;
    const request = {
      provider_id: snapshot.provider_id ?? '',
      model: snapshot.model ?? '',
      max_steps: snapshot.max_steps ?? 10,
      token_budget: snapshot.token_budget ?? 20_000,
    };
    // One copy of the dataset per lane: a case's before/after counts must see only its own writes.
    const lanes = Math.max(1, Math.min(snapshot.concurrency ?? 1, dataset.cases.length));
    const embedder = await this.#options.embedder();
    const sandboxes: AgentSandbox[] = [];
    try {
      await context.progress({ phase: 'indexing', current: 0, total: dataset.cases.length });
      for (let lane = 0; lane < lanes; lane++) {
        const name = lane === 0 ? row.run_id : `${row.run_id}.lane-${lane + 1}`;
        const sandbox = new AgentSandbox(this.#isolatedDatabase(name), embedder, this.#agentAdapters);
        sandboxes.push(sandbox);
        await sandbox.seed(dataset, toIsoUtc(this.#clock()));
        context.signal.throwIfAborted();
      }
      const free = [...sandboxes];
      const results: AgentCaseResult[] = [];
      const traces: Record<string, EventEnvelope[]> = {};
      await runInOrder(dataset.cases, {
        concurrency: lanes,
        signal: context.signal,
        run: async (entry, _index, signal) => {
          // At most `lanes` cases run at once, so a lane is always free here.
          const sandbox = free.pop()!;
          try {
            return await runAgentCase(sandbox, entry, request, this.#latencyClock, signal);
          } finally {
            free.push(sandbox);
          }
        },
        onResult: async (outcome) => {
          results.push(outcome.result);
          traces[outcome.result.case_id] = outcome.trace;
          await context.emit(CASE_RESULT_EVENT, outcome.result);
          await context.progress({
            phase: 'running',
            current: results.length,
            total: dataset.cases.length,
            message: outcome.result.case_id,
          });
        },
      });
      await this.#repository.updateRun(row.run_id, {
        metrics: { kind: 'agent', ...agentMetrics(results) },
        cases: results,
        traces,
      });
      return { cases: results.length };
    } finally {
      await Promise.all(sandboxes.map((sandbox) => sandbox.close()));
    }
  }

  async #runRag(context: JobContext<RunJobInput>, row: BenchmarkRunRow): Promise<{ cases: number }> {
    const dataset = await this.#dataset(row.dataset_id);
    if (dataset.kind !== 'rag' || (await datasetHash(dataset)) !== row.dataset_hash) {
      throw datasetChanged(row.dataset_id);
    }
    const snapshot = row.config_snapshot;
    const modes = snapshot.modes ?? [];
    const repeat = snapshot.repeat ?? 1;
    const retrieval = snapshot.retrieval ?? resolveRetrieval({});
    const reranker = retrieval.rerank ? await this.#options.reranker?.() : undefined;
    const compared = snapshot.embedding_models;
    // Full text once (on the first model's index); vector and hybrid once per compared model.
    const passes = compared
      ? compared.map((model, index) => ({
          modelId: model.model_id as string | null,
          modes: index === 0 ? modes : modes.filter((mode) => mode !== 'fts'),
        }))
      : [{ modelId: null, modes }];
    const total = dataset.cases.length * repeat * passes.reduce((sum, pass) => sum + pass.modes.length, 0);
    const embedders = this.#embedders;
    const results: RagCaseResult[] = [];
    // A compared model not on this device: the run goes on without it and fails naming it at the end.
    let unavailable: AppError | null = null;
    try {
      for (const [index, planned] of passes.entries()) {
        let pass = planned;
        context.signal.throwIfAborted();
        await context.progress({
          phase: 'indexing',
          current: results.length,
          total,
          message:
            pass.modelId === null
              ? `Indexing ${dataset.notes.length} notes`
              : `Indexing ${dataset.notes.length} notes with ${pass.modelId}`,
        });
        let pair: EmbedderPair;
        if (pass.modelId === null) {
          const embedder = await this.#options.embedder();
          pair = { passages: embedder, queries: embedder };
        } else {
          const loaded = await this.#loadCompared(embedders, pass.modelId, context.signal);
          if (loaded instanceof AppError) {
            unavailable ??= loaded;
            // Full text needs no model: it is still searched, on an index without this model's vectors.
            if (!pass.modes.includes('fts')) continue;
            const hash = new HashEmbedder();
            pair = { passages: hash, queries: hash };
            pass = { ...pass, modes: ['fts'] };
          } else {
            pair = loaded;
            // What it loaded as, for the config snapshot: the catalog's guess is replaced.
            const info = { ...pair.passages.info };
            compared![index] = info;
            if (index === 0) snapshot.embedding = info;
            await this.#repository.updateRun(row.run_id, { config_snapshot: snapshot });
          }
        }
        results.push(
          ...(await this.#ragPass(context, row, dataset, pair, {
            database: index === 0 ? row.run_id : `${row.run_id}.embedding-${index + 1}`,
            modes: pass.modes,
            modelId: pass.modelId,
            wanted: pass.modelId === null ? (snapshot.embedding ?? pair.passages.info) : pair.passages.info,
            retrieval,
            repeat,
            reranker,
            done: results.length,
            total,
          })),
        );
      }
    } finally {
      if (compared) embedders.release();
    }
    // The cases of the other models and modes are kept (as events); the run names the missing model.
    if (unavailable) throw unavailable;
    const citationSkipped = snapshot.answer_model ? null : CITATION_SKIPPED_NO_MODEL;
    const firstModel = compared?.[0]?.model_id;
    const vectorModes = modes.filter((mode) => mode !== 'fts');
    await this.#repository.updateRun(row.run_id, {
      metrics: {
        kind: 'rag',
        by_mode: ragMetricsByMode(
          results.filter((result) => !compared || (result.embedding_model_id ?? firstModel) === firstModel),
          modes,
          retrieval.top_k,
          citationSkipped,
        ),
        ...(compared && {
          by_embedding: compared.map((model) => ({
            model_id: model.model_id,
            by_mode: ragMetricsByMode(
              results.filter((result) => result.embedding_model_id === model.model_id),
              vectorModes,
              retrieval.top_k,
              citationSkipped,
            ),
          })),
        }),
      },
      cases: results,
    });
    return { cases: results.length };
  }

  /** A compared model loaded, or the refusal of one not on this device (anything else is thrown). */
  async #loadCompared(
    embedders: BenchmarkEmbedders,
    modelId: string,
    signal: AbortSignal,
  ): Promise<EmbedderPair | AppError> {
    try {
      return await embedders.load(modelId, signal);
    } catch (error) {
      if (signal.aborted || !(error instanceof AppError) || error.code !== 'EMBEDDING_MODEL_UNAVAILABLE') {
        throw error;
      }
      return error;
    }
  }

  /** One index of the dataset (one embedding model) in its own database, searched in `plan.modes`. */
  async #ragPass(
    context: JobContext<RunJobInput>,
    row: BenchmarkRunRow,
    dataset: RagDatasetFile,
    pair: EmbedderPair,
    plan: {
      database: string;
      modes: BenchmarkSearchMode[];
      /** The compared model (its id goes on each vector and hybrid result); null in a one-model run. */
      modelId: string | null;
      wanted: BenchmarkEmbeddingSnapshot;
      retrieval: BenchmarkRetrievalSettings;
      repeat: number;
      reranker: Reranker | undefined;
      done: number;
      total: number;
    },
  ): Promise<RagCaseResult[]> {
    const snapshot = row.config_snapshot;
    const { retrieval, reranker, modes } = plan;
    const isolated = await IsolatedIndex.open(
      this.#isolatedDatabase(plan.database),
      dataset,
      pair.passages,
      toIsoUtc(this.#clock()),
      pair.queries,
    );
    try {
      context.signal.throwIfAborted();
      const vectors = (await isolated.indexer.view()).vectors;
      const indexStatus = await isolated.indexer.status();
      if (indexStatus.status === 'failed') {
        throw new AppError('BENCHMARK_RUN_FAILED', 'Indexing the dataset failed.', {
          reason: indexStatus.error_message,
          ...(plan.modelId !== null && { model_id: plan.modelId }),
        });
      }
      if (modes.some((mode) => mode !== 'fts') && (!vectors || !sameModel(vectors.info, plan.wanted))) {
        throw new AppError(
          'BENCHMARK_INDEX_INCOMPATIBLE',
          'The benchmark index does not match the requested embedding model.',
          { requested: plan.wanted, index: vectors?.info ?? null },
        );
      }
      const search = new SearchService(isolated.notes, isolated.indexer, benchmarkProfile(retrieval), {
        ...(reranker ? { reranker: () => reranker } : {}),
      });
      const answerModel = snapshot.answer_model ?? null;
      const ask = answerModel
        ? this.#options.answers?.open(isolated.db, isolated.events, answerModel)
        : undefined;
      const fullText = (await isolated.indexer.view()).fullText;
      const tag = (result: RagCaseResult): RagCaseResult =>
        plan.modelId === null
          ? result
          : { ...result, embedding_model_id: result.mode === 'fts' ? null : plan.modelId };
      const results = await runRagCases<SearchHit>(
        dataset.cases,
        { modes, repeat: plan.repeat, topK: retrieval.top_k, concurrency: snapshot.concurrency ?? 1 },
        {
          search: async (query, mode, limit) => (await searchForBenchmark(search, query, mode, limit)).hits,
          ...(ask && {
            answer: (entry, hits) =>
              ask(
                entry.query,
                hits.map((hit) => ({
                  note_id: hit.note_id,
                  block_id: hit.block_id,
                  title: hit.title,
                  snippet: hit.snippet,
                  start_line: hit.start_line,
                  text: fullText.get(hit.block_id)?.text ?? hit.snippet,
                })),
                context.signal,
              ),
          }),
          clock: this.#latencyClock,
          signal: context.signal,
          onResult: async (result, passDone) => {
            const done = plan.done + passDone;
            await context.emit(CASE_RESULT_EVENT, tag(result));
            if (done % PROGRESS_EVERY === 0 || done === plan.total) {
              const label = plan.modelId !== null && result.mode !== 'fts' ? `${plan.modelId} · ` : '';
              await context.progress({
                phase: 'searching',
                current: done,
                total: plan.total,
                message: `${label}${result.mode}: ${result.case_id}`,
              });
            }
          },
        },
      );
      return results.map(tag);
    } finally {
      await isolated.close();
    }
  }
}

type SearchHit = Awaited<ReturnType<SearchService['search']>>['hits'][number];

/** A search of the run's copy; the index's own model mismatch is the benchmark's code. */
async function searchForBenchmark(
  search: SearchService,
  query: string,
  mode: BenchmarkSearchMode,
  limit: number,
): ReturnType<SearchService['search']> {
  try {
    return await search.search({ query: query.slice(0, MAX_SEARCH_QUERY_LENGTH), mode, limit });
  } catch (error) {
    if (error instanceof AppError && error.code === 'INDEX_MODEL_MISMATCH') {
      throw new AppError('BENCHMARK_INDEX_INCOMPATIBLE', error.message, error.details);
    }
    throw error;
  }
}

import { z } from 'zod';
import {
  AppError,
  createAgentBenchmarkSchema,
  createDatasetFromNotesSchema,
  createRagBenchmarkSchema,
  isAbortError,
  listBenchmarkRunsSchema,
  parseInput,
  sequenceQuerySchema,
  toIsoUtc,
  type AgentCaseResult,
  type BenchmarkCaseResult,
  type BenchmarkConfigSnapshot,
  type BenchmarkDatasetDto,
  type BenchmarkDatasetFile,
  type BenchmarkKind,
  type BenchmarkReportDto,
  type BenchmarkRunDto,
  type BenchmarkSearchMode,
  type CreateAgentBenchmarkInput,
  type CreateDatasetFromNotesInput,
  type CreateRagBenchmarkInput,
  type EventEnvelope,
  type JobDto,
  type ListBenchmarkRunsInput,
  type OffsetPage,
  type RagCaseResult,
  type RagDatasetFile,
  type RagMetrics,
  type SequencePage,
  type SequenceQuery,
} from '../contracts';
import { MAX_SEARCH_LIMIT, MAX_SEARCH_QUERY_LENGTH } from '../contracts/search-schemas';
import {
  BUILTIN_DATASET_IDS,
  builtinDataset,
  datasetBlocks,
  datasetHash,
  describeDataset,
  parseDataset,
  agentMetrics,
  compareReports,
  ragMetrics,
  reportCsv,
  type RunComparison,
} from '../benchmarks';
import { AgentSandbox, notAgentDataset, runAgentCase } from './benchmark-agent';
import { demoAdapterFactory, type AgentAdapterFactory } from './agent-service';
import { EventLog } from '../core/event-log';
import { newId, systemClock, type Clock } from '../core/ids';
import { JobRuntime, type JobContext } from '../core/job-runtime';
import { EventRepository, IndexRepository, JobRepository, NotesAgentDatabase, NotesRepository } from '../db';
import { BenchmarkRepository, seedBenchmarkNotes } from '../db/benchmark-repository';
import type { BenchmarkRunRow } from '../db/schema';
import { DEFAULT_RETRIEVAL_PROFILE, type Embedder, type Reranker, type RetrievalProfile } from '../retrieval';
import { FULL_TEXT_SNAPSHOT_VERSION } from '../retrieval/full-text-index';
import { SearchIndexer } from '../retrieval/search-indexer';
import { VECTOR_BUFFER_VERSION } from '../retrieval/vector-index';
import { SearchService } from './search-service';

export const RAG_BENCHMARK_JOB_KIND = 'benchmark.rag';
export const AGENT_BENCHMARK_JOB_KIND = 'benchmark.agent';
export const CASE_RESULT_EVENT = 'CaseResult';
/** Per-case progress is persisted every this many cases; every case still gets its event. */
const PROGRESS_EVERY = 10;
const CITATION_SKIPPED_NO_MODEL = 'no answer model was chosen';

const runIdSchema = z.string().min(1, 'run_id is required').max(200);
const datasetIdSchema = z.string().min(1, 'dataset_id is required').max(200);

/** Where a run executes, for the config snapshot (§9.4). */
export interface BenchmarkEnvironment {
  runtime: 'browser' | 'node';
  /** The browser's user agent or `node <version>`. */
  platform: string;
  webgpu_available: boolean;
  /** What computes the embeddings: `js` (hash-v1), `wasm` or `webgpu`. */
  embedding_backend: string;
}

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
  /** Opens a run's own database; the default names it after the run, apart from the user's. */
  openIsolated?: (runId: string) => NotesAgentDatabase;
  /** Latency clock in milliseconds (performance.now by default). */
  latencyClock?: () => number;
  clock?: Clock;
  environment?: () => BenchmarkEnvironment;
  /** The models agent runs may use; the offline demo ("mock") provider by default. */
  agentAdapters?: AgentAdapterFactory;
}

/** The name prefix of a benchmark run's own database: never the user's notebook. */
export const ISOLATED_DATABASE_PREFIX = 'notes-agent-benchmark-';

interface RagJobInput {
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

  constructor(options: BenchmarkServiceOptions) {
    this.#options = options;
    this.#repository = new BenchmarkRepository(options.db);
    this.#clock = options.clock ?? systemClock;
    options.runtime.register<RagJobInput, { cases: number }>({
      kind: RAG_BENCHMARK_JOB_KIND,
      concurrency: 1,
      run: (context) => this.#runRag(context),
    });
    options.runtime.register<RagJobInput, { cases: number }>({
      kind: AGENT_BENCHMARK_JOB_KIND,
      concurrency: 1,
      run: (context) => this.#runAgent(context),
    });
  }

  // ---- datasets (§9.1–9.3) ----

  async listDatasets(input: { kind?: BenchmarkKind } = {}): Promise<{ items: BenchmarkDatasetDto[] }> {
    const { kind } = parseInput(z.object({ kind: z.enum(['rag', 'agent']).optional() }).strict(), input);
    const builtin = await Promise.all(
      BUILTIN_DATASET_IDS.map((id) => describeDataset(builtinDataset(id)!, 'builtin')),
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
   * Registers a dataset from a file's text. It is validated whole before
   * anything is stored; its id must not be a shipped one. Importing an id again
   * replaces that dataset (runs keep the hash they ran on).
   */
  async importDataset(text: string): Promise<BenchmarkDatasetDto> {
    if (typeof text !== 'string' || text.length === 0) {
      throw new AppError('BENCHMARK_DATASET_INVALID', 'The dataset file is empty.', {
        case_id: null,
        field: '(root)',
      });
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new AppError('BENCHMARK_DATASET_INVALID', 'The dataset file is not valid JSON.', {
        case_id: null,
        field: '(root)',
      });
    }
    return this.#register(parseDataset(json));
  }

  /**
   * "Benchmark my notes": a RAG dataset whose corpus is a copy of the user's
   * live notes (block ids kept) and whose cases are the blocks they picked
   * with the questions they wrote. Runs search the copy, never the notebook.
   */
  async createDatasetFromNotes(input: CreateDatasetFromNotesInput): Promise<BenchmarkDatasetDto> {
    const request = parseInput(createDatasetFromNotesSchema, input, 'This dataset is not valid.');
    const picked = await this.#options.notes.blocksById(request.cases.map((entry) => entry.block_id));
    picked.forEach((block, index) => {
      if (!block) {
        throw new AppError(
          'BENCHMARK_DATASET_INVALID',
          `Case ${index + 1}: the chosen block no longer exists.`,
          {
            case_id: `mine-${index + 1}`,
            field: `cases.${index}.block_id`,
          },
        );
      }
    });
    const notes = await this.#options.notes.all({ trashed: false });
    const dataset: RagDatasetFile = {
      dataset_id: request.dataset_id,
      kind: 'rag',
      version: '1.0.0',
      description: request.description,
      notes: await Promise.all(
        notes.map(async (note) => ({
          note_id: note.note_id,
          title: note.title,
          folder: note.folder,
          tags: [...note.tags],
          body: note.body,
          block_ids: (await this.#options.notes.blocks(note.note_id)).map((block) => block.block_id),
        })),
      ),
      cases: request.cases.map((entry, index) => ({
        case_id: `mine-${String(index + 1).padStart(3, '0')}`,
        query: entry.query,
        expected_note_ids: [picked[index]!.note_id],
        expected_block_ids: [entry.block_id],
        citation_required: false,
        tags: ['mine'],
      })),
    };
    return this.#register(parseDataset(dataset));
  }

  async #register(dataset: BenchmarkDatasetFile): Promise<BenchmarkDatasetDto> {
    if (BUILTIN_DATASET_IDS.includes(dataset.dataset_id)) {
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
    const dataset = builtinDataset(datasetId) ?? (await this.#repository.getDataset(datasetId))?.dataset;
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
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.path.map(String).join('.') || '(root)';
      throw new AppError(
        'BENCHMARK_CONFIG_INVALID',
        `This benchmark is not valid: ${field} ${issue.message}.`,
        {
          field,
        },
      );
    }
    const request = parsed.data;
    const dataset = await this.#dataset(request.dataset_id);
    if (dataset.kind !== 'rag') {
      throw new AppError('BENCHMARK_CONFIG_INVALID', `${dataset.dataset_id} is not a RAG dataset.`, {
        field: 'dataset_id',
      });
    }
    if (request.answer_model !== null) {
      throw new AppError(
        'BENCHMARK_CONFIG_INVALID',
        'Measuring citations with a model is not available here yet; run without an answer model.',
        { field: 'answer_model' },
      );
    }
    const retrieval = {
      top_k: Math.min(request.retrieval.top_k ?? 10, MAX_SEARCH_LIMIT),
      rrf_k: request.retrieval.rrf_k ?? DEFAULT_RETRIEVAL_PROFILE.rrf_k,
      rerank: request.retrieval.rerank ?? DEFAULT_RETRIEVAL_PROFILE.rerank,
      rerank_candidates: request.retrieval.rerank_candidates ?? DEFAULT_RETRIEVAL_PROFILE.rerank_candidates,
      score_threshold: request.retrieval.score_threshold ?? DEFAULT_RETRIEVAL_PROFILE.score_threshold,
    };
    const embedder = await this.#options.embedder();
    const usesVectors = request.modes.some((mode) => mode !== 'fts');
    if (usesVectors && request.embedding) {
      const wanted = request.embedding;
      const info = embedder.info;
      const differs =
        wanted.model_id !== info.model_id ||
        (wanted.model_version !== undefined && wanted.model_version !== info.model_version) ||
        (wanted.dimension !== undefined && wanted.dimension !== info.dimension);
      if (differs) {
        throw new AppError(
          'BENCHMARK_INDEX_INCOMPATIBLE',
          `The index is built with ${info.model_id} (${info.dimension} dimensions), not the requested ${wanted.model_id}.`,
          { requested: wanted, index: info },
        );
      }
    }
    const reranker = retrieval.rerank ? await this.#options.reranker?.() : undefined;
    const hash = await datasetHash(dataset);
    const snapshot: BenchmarkConfigSnapshot = {
      dataset_id: dataset.dataset_id,
      dataset_hash: hash,
      dataset_version: dataset.version,
      modes: request.modes,
      repeat: request.repeat,
      retrieval: { ...retrieval, rerank: reranker !== undefined },
      embedding: { ...embedder.info },
      reranker: reranker ? { ...reranker.info } : null,
      index_version: { full_text: FULL_TEXT_SNAPSHOT_VERSION, vectors: VECTOR_BUFFER_VERSION },
      profile_id: DEFAULT_RETRIEVAL_PROFILE.profile_id,
      profile_version: DEFAULT_RETRIEVAL_PROFILE.version,
      answer_model: null,
      environment: (this.#options.environment ?? defaultEnvironment(embedder))(),
    };
    const runId = newId('benchmark');
    const row: BenchmarkRunRow = {
      run_id: runId,
      kind: 'rag',
      dataset_id: dataset.dataset_id,
      dataset_hash: hash,
      created_at: toIsoUtc(this.#clock()),
      config_snapshot: snapshot,
      metadata: request.metadata,
      metrics: null,
      cases: null,
      job_id: '',
    };
    return this.#start(row, RAG_BENCHMARK_JOB_KIND);
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
      throw new AppError('BENCHMARK_CONFIG_INVALID', 'Skills are not available to agent benchmarks yet.', {
        field: 'skill_id',
      });
    }
    try {
      await this.#agentAdapters({ provider: request.provider_id, model: request.model });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      throw new AppError('BENCHMARK_CONFIG_INVALID', error.message, {
        field: 'provider_id',
        cause: error.code,
      });
    }
    const embedder = await this.#options.embedder();
    const hash = await datasetHash(dataset);
    const row: BenchmarkRunRow = {
      run_id: newId('benchmark'),
      kind: 'agent',
      dataset_id: dataset.dataset_id,
      dataset_hash: hash,
      created_at: toIsoUtc(this.#clock()),
      config_snapshot: {
        dataset_id: dataset.dataset_id,
        dataset_hash: hash,
        dataset_version: dataset.version,
        provider_id: request.provider_id,
        model: request.model,
        skill_id: null,
        max_steps: Math.min(request.max_steps, 50),
        token_budget: request.token_budget,
        concurrency: 1,
        embedding: { ...embedder.info },
        environment: (this.#options.environment ?? defaultEnvironment(embedder))(),
      },
      metadata: request.metadata,
      metrics: null,
      cases: null,
      job_id: '',
    };
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
    return {
      items: runs.slice(query.offset, query.offset + query.limit),
      page: { total: runs.length, limit: query.limit, offset: query.offset },
    };
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
    const report = await this.report(runId);
    const base = `${report.run.dataset_id}-${report.run.run_id}`;
    return kind === 'json'
      ? {
          filename: `${base}.json`,
          mime_type: 'application/json',
          text: `${JSON.stringify(report, null, 1)}\n`,
        }
      : { filename: `${base}.csv`, mime_type: 'text/csv', text: reportCsv(report) };
  }

  async #casesFromEvents(runId: string): Promise<BenchmarkCaseResult[]> {
    const cases: BenchmarkCaseResult[] = [];
    let after = 0;
    for (;;) {
      const page = await this.#options.events.list(runId, after, 500);
      for (const item of page.items) {
        if (item.event === CASE_RESULT_EVENT) cases.push(item.data as BenchmarkCaseResult);
      }
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

  // ---- the RAG job ----

  async #runRag(context: JobContext<RagJobInput>): Promise<{ cases: number }> {
    const row = await this.#row(context.input.run_id);
    try {
      return await this.#runRagCases(context, row);
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

  async #runAgent(context: JobContext<RagJobInput>): Promise<{ cases: number }> {
    const row = await this.#row(context.input.run_id);
    const dataset = await this.#dataset(row.dataset_id);
    if (dataset.kind !== 'agent' || (await datasetHash(dataset)) !== row.dataset_hash) {
      throw new AppError('BENCHMARK_RUN_FAILED', 'The dataset changed after the run was created.', {
        dataset_id: row.dataset_id,
      });
    }
    const snapshot = row.config_snapshot;
    const request = {
      provider_id: snapshot.provider_id ?? '',
      model: snapshot.model ?? '',
      max_steps: snapshot.max_steps ?? 10,
      token_budget: snapshot.token_budget ?? 20_000,
    };
    const sandbox = new AgentSandbox(
      this.#options.openIsolated?.(row.run_id) ??
        new NotesAgentDatabase(`${ISOLATED_DATABASE_PREFIX}${row.run_id}`),
      await this.#options.embedder(),
      this.#agentAdapters,
    );
    try {
      await context.progress({ phase: 'indexing', current: 0, total: dataset.cases.length });
      await sandbox.seed(dataset, toIsoUtc(this.#clock()));
      const clock = this.#options.latencyClock ?? (() => performance.now());
      const results: AgentCaseResult[] = [];
      const traces: Record<string, EventEnvelope[]> = {};
      for (const entry of dataset.cases) {
        context.signal.throwIfAborted();
        const outcome = await runAgentCase(sandbox, entry, request, clock, context.signal);
        results.push(outcome.result);
        traces[entry.case_id] = outcome.trace;
        await context.emit(CASE_RESULT_EVENT, outcome.result);
        await context.progress({
          phase: 'running',
          current: results.length,
          total: dataset.cases.length,
          message: entry.case_id,
        });
      }
      await this.#repository.updateRun(row.run_id, {
        metrics: { kind: 'agent', ...agentMetrics(results) },
        cases: results,
        traces,
      });
      return { cases: results.length };
    } catch (error) {
      if (isAbortError(error) || context.signal.aborted || error instanceof AppError) throw error;
      throw new AppError(
        'BENCHMARK_RUN_FAILED',
        'The benchmark run failed.',
        { run_id: row.run_id },
        { cause: error },
      );
    } finally {
      await sandbox.close();
    }
  }

  async #runRagCases(context: JobContext<RagJobInput>, row: BenchmarkRunRow): Promise<{ cases: number }> {
    const dataset = await this.#dataset(row.dataset_id);
    if (dataset.kind !== 'rag' || (await datasetHash(dataset)) !== row.dataset_hash) {
      throw new AppError('BENCHMARK_RUN_FAILED', 'The dataset changed after the run was created.', {
        dataset_id: row.dataset_id,
      });
    }
    const snapshot = row.config_snapshot as BenchmarkConfigSnapshot & {
      modes: BenchmarkSearchMode[];
      repeat: number;
      retrieval: {
        top_k: number;
        rrf_k: number;
        rerank: boolean;
        rerank_candidates: number;
        score_threshold: number;
      };
      embedding: Embedder['info'];
    };
    const embedder = await this.#options.embedder();
    const reranker = snapshot.retrieval.rerank ? await this.#options.reranker?.() : undefined;
    const total = dataset.cases.length * snapshot.modes.length * snapshot.repeat;
    await context.progress({
      phase: 'indexing',
      current: 0,
      total,
      message: `Indexing ${dataset.notes.length} notes`,
    });

    const isolated = await IsolatedIndex.open(
      this.#options.openIsolated?.(row.run_id) ??
        new NotesAgentDatabase(`${ISOLATED_DATABASE_PREFIX}${row.run_id}`),
      dataset,
      embedder,
      toIsoUtc(this.#clock()),
    );
    try {
      context.signal.throwIfAborted();
      const vectors = (await isolated.indexer.view()).vectors;
      const indexStatus = await isolated.indexer.status();
      if (indexStatus.status === 'failed') {
        throw new AppError('BENCHMARK_RUN_FAILED', 'Indexing the dataset failed.', {
          reason: indexStatus.error_message,
        });
      }
      if (
        snapshot.modes.some((mode) => mode !== 'fts') &&
        (!vectors || !sameModel(vectors.info, snapshot.embedding))
      ) {
        throw new AppError(
          'BENCHMARK_INDEX_INCOMPATIBLE',
          'The benchmark index does not match the requested embedding model.',
          {
            requested: snapshot.embedding,
            index: vectors?.info ?? null,
          },
        );
      }
      const profile: RetrievalProfile = {
        ...DEFAULT_RETRIEVAL_PROFILE,
        rrf_k: snapshot.retrieval.rrf_k,
        rerank_candidates: snapshot.retrieval.rerank_candidates,
        score_threshold: snapshot.retrieval.score_threshold,
        context_top_k: snapshot.retrieval.top_k,
        fts_recall: Math.max(DEFAULT_RETRIEVAL_PROFILE.fts_recall, snapshot.retrieval.top_k),
        vector_recall: Math.max(DEFAULT_RETRIEVAL_PROFILE.vector_recall, snapshot.retrieval.top_k),
      };
      const search = new SearchService(isolated.notes, isolated.indexer, profile, {
        ...(reranker ? { reranker: () => reranker } : {}),
      });
      const clock = this.#options.latencyClock ?? (() => performance.now());
      const results: RagCaseResult[] = [];
      let done = 0;
      for (const mode of snapshot.modes) {
        for (let repeat = 1; repeat <= snapshot.repeat; repeat++) {
          for (const entry of dataset.cases) {
            context.signal.throwIfAborted();
            const started = clock();
            let found;
            try {
              found = await search.search({
                query: entry.query.slice(0, MAX_SEARCH_QUERY_LENGTH),
                mode,
                limit: snapshot.retrieval.top_k,
              });
            } catch (error) {
              if (error instanceof AppError && error.code === 'INDEX_MODEL_MISMATCH') {
                throw new AppError('BENCHMARK_INDEX_INCOMPATIBLE', error.message, error.details);
              }
              throw error;
            }
            const latency = clock() - started;
            const result = ragCaseResult(entry, mode, repeat, found.hits, latency);
            results.push(result);
            done += 1;
            await context.emit(CASE_RESULT_EVENT, result);
            if (done % PROGRESS_EVERY === 0 || done === total) {
              await context.progress({
                phase: 'searching',
                current: done,
                total,
                message: `${mode}: ${entry.case_id}`,
              });
            }
          }
        }
      }
      const byMode: Partial<Record<BenchmarkSearchMode, RagMetrics>> = {};
      for (const mode of snapshot.modes) {
        byMode[mode] = ragMetrics(
          results.filter((result) => result.mode === mode),
          snapshot.retrieval.top_k,
          CITATION_SKIPPED_NO_MODEL,
        );
      }
      await this.#repository.updateRun(row.run_id, {
        metrics: { kind: 'rag', by_mode: byMode },
        cases: results,
      });
      return { cases: results.length };
    } finally {
      await isolated.close();
    }
  }
}

function configInvalid(error: z.ZodError): AppError {
  const issue = error.issues[0]!;
  const field = issue.path.map(String).join('.') || '(root)';
  return new AppError('BENCHMARK_CONFIG_INVALID', `This benchmark is not valid: ${field} ${issue.message}.`, {
    field,
  });
}

function sameModel(a: Embedder['info'], b: Embedder['info']): boolean {
  return (
    a.model_id === b.model_id &&
    a.model_version === b.model_version &&
    a.dimension === b.dimension &&
    a.normalization === b.normalization
  );
}

function ragCaseResult(
  entry: RagDatasetFile['cases'][number],
  mode: BenchmarkSearchMode,
  repeat: number,
  hits: ReadonlyArray<{ block_id: string; note_id: string }>,
  latency: number,
): RagCaseResult {
  const ranked = hits.map((hit) => hit.block_id);
  const rankedNotes = hits.map((hit) => hit.note_id);
  const expected = entry.expected_block_ids.length > 0 ? entry.expected_block_ids : entry.expected_note_ids;
  const list = entry.expected_block_ids.length > 0 ? ranked : rankedNotes;
  const index = list.findIndex((id) => expected.includes(id));
  const firstHit = index < 0 ? null : index + 1;
  return {
    kind: 'rag',
    case_id: entry.case_id,
    mode,
    repeat,
    query: entry.query,
    expected_block_ids: [...entry.expected_block_ids],
    expected_note_ids: [...entry.expected_note_ids],
    citation_required: entry.citation_required,
    ranked_block_ids: ranked,
    ranked_note_ids: rankedNotes,
    first_hit_rank: firstHit,
    passed: firstHit !== null,
    failure_reason:
      hits.length === 0 ? 'no results' : firstHit === null ? 'expected block not retrieved' : null,
    latency_ms: Math.round(latency * 100) / 100,
    cited_block_ids: null,
  };
}

/**
 * A run's own notebook: the dataset's notes in a separately named database,
 * with its own job runtime so its index jobs never appear among the user's.
 * Deleted when the run ends, whatever the outcome.
 */
class IsolatedIndex {
  readonly db: NotesAgentDatabase;
  readonly notes: NotesRepository;
  readonly indexer: SearchIndexer;

  private constructor(db: NotesAgentDatabase, embedder: Embedder) {
    this.db = db;
    this.notes = new NotesRepository(db);
    const runtime = new JobRuntime(new JobRepository(db), new EventLog(new EventRepository(db)));
    this.indexer = new SearchIndexer({
      notes: this.notes,
      store: new IndexRepository(db),
      runtime,
      embedder,
    });
  }

  static async open(
    db: NotesAgentDatabase,
    dataset: BenchmarkDatasetFile,
    embedder: Embedder,
    now: string,
  ): Promise<IsolatedIndex> {
    const isolated = new IsolatedIndex(db, embedder);
    try {
      await seedBenchmarkNotes(
        db,
        dataset.notes.map((note) => ({ ...note, blocks: datasetBlocks(note) })),
        now,
      );
      await isolated.indexer.start();
      return isolated;
    } catch (error) {
      await isolated.close();
      throw error;
    }
  }

  async close(): Promise<void> {
    this.indexer.dispose();
    await this.db.delete();
  }
}

function toRunDto(row: BenchmarkRunRow, job: JobDto): BenchmarkRunDto {
  return {
    run_id: row.run_id,
    job_id: row.job_id,
    kind: row.kind,
    dataset_id: row.dataset_id,
    dataset_hash: row.dataset_hash,
    status: job.status,
    progress: job.progress,
    metrics: job.status === 'completed' ? row.metrics : null,
    config_snapshot: row.config_snapshot,
    error: job.error,
    metadata: row.metadata,
    created_at: row.created_at,
    started_at: job.started_at,
    completed_at: job.completed_at,
  };
}

function defaultEnvironment(embedder: Embedder): () => BenchmarkEnvironment {
  return () => {
    const node = typeof process !== 'undefined' ? process.versions?.node : undefined;
    const gpu = typeof navigator !== 'undefined' && 'gpu' in navigator;
    return {
      runtime: node ? 'node' : 'browser',
      platform: node ? `node ${node}` : typeof navigator !== 'undefined' ? navigator.userAgent : 'unknown',
      webgpu_available: gpu,
      embedding_backend: embedder.info.model_id === 'hash-v1' ? 'js' : gpu ? 'webgpu' : 'wasm',
    };
  };
}

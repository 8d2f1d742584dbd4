import type { z } from 'zod';
import {
  AppError,
  type BenchmarkCaseResult,
  type BenchmarkConfigSnapshot,
  type BenchmarkDatasetFile,
  type BenchmarkRetrievalSettings,
  type BenchmarkRunDto,
  type BenchmarkSearchMode,
  type EventEnvelope,
  type JobDto,
  type OffsetPage,
} from '../contracts';
import type { BenchmarkRunRow } from '../db/schema';
import type { EmbeddingModelInfo } from '../retrieval';

/** The event that carries one case's result, in a run's job events. */
export const CASE_RESULT_EVENT = 'CaseResult';

/** Where a run executes, for the config snapshot (§9.4). */
export interface BenchmarkEnvironment {
  runtime: 'browser' | 'node';
  /** The browser's user agent or `node <version>`. */
  platform: string;
  webgpu_available: boolean;
  /** What computes the embeddings: `js` (hash-v1), `wasm` or `webgpu`. */
  embedding_backend: string;
}

/** What the environment probe reads from the globals. */
export interface EnvironmentProbe {
  /** `process.versions.node` when in Node. */
  node?: string | undefined;
  userAgent?: string | undefined;
  webgpu: boolean;
}

export function describeEnvironment(probe: EnvironmentProbe, embeddingModelId: string): BenchmarkEnvironment {
  return {
    runtime: probe.node ? 'node' : 'browser',
    platform: probe.node ? `node ${probe.node}` : (probe.userAgent ?? 'unknown'),
    webgpu_available: probe.webgpu,
    embedding_backend: embeddingModelId === 'hash-v1' ? 'js' : probe.webgpu ? 'webgpu' : 'wasm',
  };
}

/** Reads the probe from this thread's globals (a worker's `navigator` in the app, `process` in Node). */
export function probeEnvironment(): EnvironmentProbe {
  const node = typeof process !== 'undefined' ? process.versions?.node : undefined;
  const hasNavigator = typeof navigator !== 'undefined';
  return {
    node,
    userAgent: hasNavigator ? navigator.userAgent : undefined,
    webgpu: hasNavigator && 'gpu' in navigator,
  };
}

/** BENCHMARK_CONFIG_INVALID naming the first bad field of a request. */
export function configInvalid(error: z.ZodError): AppError {
  const issue = error.issues[0]!;
  const field = issue.path.map(String).join('.') || '(root)';
  return new AppError('BENCHMARK_CONFIG_INVALID', `This benchmark is not valid: ${field} ${issue.message}.`, {
    field,
  });
}

export function datasetChanged(datasetId: string): AppError {
  return new AppError('BENCHMARK_RUN_FAILED', 'The dataset changed after the run was created.', {
    dataset_id: datasetId,
  });
}

/** A run's DTO: the row's own fields plus the status, progress and error of its job. */
export function toRunDto(row: BenchmarkRunRow, job: JobDto): BenchmarkRunDto {
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

/** The case results among a run's events, in order (a run that did not complete reports these). */
export function caseResultsOf(events: readonly EventEnvelope[]): BenchmarkCaseResult[] {
  return events.flatMap((item) =>
    item.event === CASE_RESULT_EVENT ? [item.data as BenchmarkCaseResult] : [],
  );
}

export function pageOf<T>(items: readonly T[], offset: number, limit: number): OffsetPage<T> {
  return { items: items.slice(offset, offset + limit), page: { total: items.length, limit, offset } };
}

export interface RagSnapshotInput {
  dataset: BenchmarkDatasetFile;
  hash: string;
  modes: BenchmarkSearchMode[];
  repeat: number;
  retrieval: BenchmarkRetrievalSettings;
  embedding: EmbeddingModelInfo;
  reranker: { model_id: string; model_version: string } | null;
  indexVersion: { full_text: number; vectors: number };
  profile: { profile_id: string; version: number };
  answerModel: { provider_id: string; model: string } | null;
  /** Cases searched at most this many at a time. */
  concurrency: number;
  environment: BenchmarkEnvironment;
}

/** §9.4: what a RAG run ran with; `rerank` is what really ran (true only with a reranker). */
export function ragSnapshot(input: RagSnapshotInput): BenchmarkConfigSnapshot {
  return {
    dataset_id: input.dataset.dataset_id,
    dataset_hash: input.hash,
    dataset_version: input.dataset.version,
    modes: input.modes,
    repeat: input.repeat,
    retrieval: { ...input.retrieval, rerank: input.reranker !== null },
    embedding: { ...input.embedding },
    reranker: input.reranker ? { ...input.reranker } : null,
    index_version: input.indexVersion,
    profile_id: input.profile.profile_id,
    profile_version: input.profile.version,
    answer_model: input.answerModel ? { ...input.answerModel } : null,
    concurrency: input.concurrency,
    environment: input.environment,
  };
}

export interface AgentSnapshotInput {
  dataset: BenchmarkDatasetFile;
  hash: string;
  providerId: string;
  model: string;
  maxSteps: number;
  tokenBudget: number;
  /** Cases run at most this many at a time, each lane in its own copy of the dataset. */
  concurrency: number;
  embedding: EmbeddingModelInfo;
  environment: BenchmarkEnvironment;
}

/** The agent's own step limit is 50, whatever a request asks. */
export const MAX_AGENT_STEPS = 50;

/** §9.5: what an agent run ran with. */
export function agentSnapshot(input: AgentSnapshotInput): BenchmarkConfigSnapshot {
  return {
    dataset_id: input.dataset.dataset_id,
    dataset_hash: input.hash,
    dataset_version: input.dataset.version,
    provider_id: input.providerId,
    model: input.model,
    skill_id: null,
    max_steps: Math.min(input.maxSteps, MAX_AGENT_STEPS),
    token_budget: input.tokenBudget,
    concurrency: input.concurrency,
    embedding: { ...input.embedding },
    environment: input.environment,
  };
}

/** A new run's row: metrics and cases come when it completes, the job id once the job exists. */
export function newRunRow(
  runId: string,
  kind: BenchmarkRunRow['kind'],
  snapshot: BenchmarkConfigSnapshot,
  metadata: Record<string, unknown>,
  createdAt: string,
): BenchmarkRunRow {
  return {
    run_id: runId,
    kind,
    dataset_id: snapshot.dataset_id,
    dataset_hash: snapshot.dataset_hash,
    created_at: createdAt,
    config_snapshot: snapshot,
    metadata,
    metrics: null,
    cases: null,
    job_id: '',
  };
}

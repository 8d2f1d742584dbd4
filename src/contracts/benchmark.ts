import type { ErrorEnvelope } from './errors';
import type { JobProgress, JobStatus } from './jobs';

/** §9: RAG and agent benchmarks. Wire DTOs; the zod schemas live in benchmark-schemas.ts. */

/** Cases a run may have in flight at once (agent and RAG runs alike). */
export const MAX_BENCHMARK_CONCURRENCY = 8;
/** Embedding models one RAG run may compare (project addition, `embedding_models`). */
export const MAX_BENCHMARK_EMBEDDING_MODELS = 4;
/**
 * Characters of one dataset note's body. "Benchmark my notes" copies a longer
 * note only up to its last whole block within it and lists it in `cut_notes`.
 */
export const MAX_BENCHMARK_NOTE_BODY = 1_000_000;

export type BenchmarkKind = 'rag' | 'agent';
export type BenchmarkSearchMode = 'fts' | 'vector' | 'hybrid';

/** §9.1 list entry. */
export interface BenchmarkDatasetDto {
  dataset_id: string;
  kind: BenchmarkKind;
  version: string;
  description: string;
  case_count: number;
  content_hash: string;
  /** Where it was registered from: shipped with the app, or imported by the user. */
  source: 'builtin' | 'imported';
}

/** §9.2. Block ids of a shipped note are `<note_id>#<position>` unless the note lists its own. */
export interface RagCaseDto {
  case_id: string;
  query: string;
  expected_note_ids: string[];
  expected_block_ids: string[];
  citation_required: boolean;
  tags: string[];
}

/** A note the RAG run indexes in its isolated database. */
export interface BenchmarkNoteDto {
  note_id: string;
  title: string;
  folder: string;
  tags: string[];
  body: string;
  /** Ids of the note's blocks in order; defaults to `<note_id>#<position>`. */
  block_ids?: string[];
  /**
   * Beside `block_ids`, each block's content hash and first line (0-based) when
   * the dataset was made, so its ids find their blocks again if the app's block
   * parser later cuts the body differently: by hash, else by the line.
   */
  block_anchors?: BenchmarkBlockAnchorDto[];
}

export interface BenchmarkBlockAnchorDto {
  hash: string;
  line: number;
}

/** §9.3. */
export interface AgentCaseDto {
  case_id: string;
  prompt: string;
  allowed_tools: string[];
  expected_tools: string[];
  expected_conditions: {
    citation_required?: boolean;
    tasks_created?: number;
    notes_created?: number;
    answer_contains?: string[];
  };
  tags: string[];
}

export interface RagDatasetFile {
  dataset_id: string;
  kind: 'rag';
  version: string;
  description: string;
  notes: BenchmarkNoteDto[];
  cases: RagCaseDto[];
}

export interface AgentDatasetFile {
  dataset_id: string;
  kind: 'agent';
  version: string;
  description: string;
  /** Notes seeded into the isolated database the agent works in. */
  notes: BenchmarkNoteDto[];
  cases: AgentCaseDto[];
}

export type BenchmarkDatasetFile = RagDatasetFile | AgentDatasetFile;

/** §9.4 `retrieval`. */
export interface BenchmarkRetrievalSettings {
  top_k: number;
  rrf_k: number;
  rerank: boolean;
  rerank_candidates: number;
  score_threshold: number;
}

export interface CreateRagBenchmarkInput {
  dataset_id: string;
  modes?: BenchmarkSearchMode[];
  retrieval?: Partial<BenchmarkRetrievalSettings>;
  repeat?: number;
  /** The embedding model the index must match; checked before the run starts. */
  embedding?: { model_id: string; model_version?: string; dimension?: number };
  /** The model that answers for `citation_hit_rate`; without one the metric is skipped. */
  answer_model?: { provider_id: string; model: string } | null;
  /** Project addition: cases searched (and answered) at most this many at a time; 1 by default. */
  concurrency?: number;
  /**
   * Project addition: compare embedding models in one run. The vector and
   * hybrid modes run once per model, in this order, each on an index of the
   * dataset built with that model in the benchmark's own engine (the user's
   * chosen model and notebook index are left as they are); full text runs
   * once. Models must be on this device already (hash-v1 always is). Not
   * together with `embedding`.
   */
  embedding_models?: string[];
  metadata?: Record<string, unknown>;
}

export interface CreateAgentBenchmarkInput {
  dataset_id: string;
  provider_id: string;
  model: string;
  skill_id?: string | null;
  max_steps?: number;
  token_budget?: number;
  concurrency?: number;
  metadata?: Record<string, unknown>;
}

/** §9.7 RAG; rates are 0..1, a skipped metric is null with its reason in `skipped`. */
export interface RagMetrics {
  hit_at_1: number;
  hit_at_5: number;
  recall_at_k: number;
  mrr: number;
  citation_hit_rate: number | null;
  p50_latency_ms: number;
  p95_latency_ms: number;
  case_count: number;
  skipped: Record<string, string>;
}

/** §9.7 Agent. */
export interface AgentMetrics {
  task_success_rate: number;
  tool_selection_accuracy: number;
  tool_argument_accuracy: number;
  invalid_tool_call_rate: number;
  average_steps: number;
  average_latency_ms: number;
  average_token_usage: number;
  case_count: number;
}

/** One embedding model's metrics in a run that compared several (project addition). */
export interface RagEmbeddingMetrics {
  model_id: string;
  /** The vector and hybrid modes the run searched with this model. */
  by_mode: Partial<Record<BenchmarkSearchMode, RagMetrics>>;
}

/**
 * RAG metrics per mode; agent metrics flat. A run that compared embedding
 * models has `by_embedding`, one entry per model in request order; its
 * `by_mode` then holds full text and the first model's vector and hybrid modes.
 */
export type BenchmarkMetrics =
  | {
      kind: 'rag';
      by_mode: Partial<Record<BenchmarkSearchMode, RagMetrics>>;
      by_embedding?: RagEmbeddingMetrics[];
    }
  | ({ kind: 'agent' } & AgentMetrics);

/** What a run ran with (§9.4): enough to tell two runs' numbers apart. RAG and agent fill their own parts. */
export interface BenchmarkConfigSnapshot {
  dataset_id: string;
  dataset_hash: string;
  dataset_version: string;
  modes?: BenchmarkSearchMode[];
  repeat?: number;
  retrieval?: BenchmarkRetrievalSettings;
  embedding?: BenchmarkEmbeddingSnapshot;
  /**
   * The models a comparing run uses, in order: as the catalog names them when
   * the run is created, replaced by what each one loaded as when it is used.
   */
  embedding_models?: BenchmarkEmbeddingSnapshot[];
  reranker?: { model_id: string; model_version: string } | null;
  index_version?: { full_text: number; vectors: number };
  profile_id?: string;
  profile_version?: number;
  answer_model?: { provider_id: string; model: string } | null;
  provider_id?: string;
  model?: string;
  max_steps?: number;
  token_budget?: number;
  /** Cases run at most this many at a time (agent and RAG runs). */
  concurrency?: number;
  skill_id?: string | null;
  environment?: {
    runtime: 'browser' | 'node';
    platform: string;
    webgpu_available: boolean;
    embedding_backend: string;
  };
  [key: string]: unknown;
}

export interface BenchmarkEmbeddingSnapshot {
  model_id: string;
  model_version: string;
  dimension: number;
  normalization: 'l2' | 'none';
}

/** §9.6. */
export interface BenchmarkRunDto {
  run_id: string;
  /** The job that runs it: subscribe to its events for progress and per-case results. */
  job_id: string;
  kind: BenchmarkKind;
  dataset_id: string;
  dataset_hash: string;
  status: JobStatus;
  progress: JobProgress | null;
  metrics: BenchmarkMetrics | null;
  config_snapshot: BenchmarkConfigSnapshot;
  error: ErrorEnvelope['error'] | null;
  metadata: Record<string, unknown>;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
}

export interface RagCaseResult {
  kind: 'rag';
  case_id: string;
  mode: BenchmarkSearchMode;
  repeat: number;
  query: string;
  expected_block_ids: string[];
  expected_note_ids: string[];
  citation_required: boolean;
  /** Block ids in rank order. */
  ranked_block_ids: string[];
  /** The note of each ranked block, same order. */
  ranked_note_ids: string[];
  /** 1-based rank of the first expected block; null when none was returned. */
  first_hit_rank: number | null;
  passed: boolean;
  failure_reason: string | null;
  latency_ms: number;
  cited_block_ids: string[] | null;
  /**
   * In a run comparing embedding models: the model a vector or hybrid case
   * searched with; null for full text. Absent in other runs.
   */
  embedding_model_id?: string | null;
}

export interface AgentCaseResult {
  kind: 'agent';
  case_id: string;
  prompt: string;
  trace_run_id: string | null;
  status: string;
  passed: boolean;
  failure_reason: string | null;
  tools_called: string[];
  expected_tools: string[];
  invalid_tool_calls: number;
  tool_calls: number;
  argument_errors: number;
  steps: number;
  latency_ms: number;
  token_usage: number;
}

export type BenchmarkCaseResult = RagCaseResult | AgentCaseResult;

export interface BenchmarkReportDto {
  run: BenchmarkRunDto;
  cases: BenchmarkCaseResult[];
}

export interface ListBenchmarkRunsInput {
  kind?: BenchmarkKind;
  status?: JobStatus;
  limit?: number;
  offset?: number;
}

/** Builds a dataset from the user's own notes: each case names a block and the question it answers. */
export interface CreateDatasetFromNotesInput {
  dataset_id: string;
  description?: string;
  cases: Array<{ block_id: string; query: string }>;
}

/**
 * A note a "benchmark my notes" dataset holds only in part: its body is over
 * `MAX_BENCHMARK_NOTE_BODY`, so the copy ends at its last whole block within
 * that bound. Cases can only name blocks of the kept part.
 */
export interface BenchmarkCutNoteDto {
  note_id: string;
  title: string;
  /** The note's body length, in UTF-16 code units as the body limits count it. */
  body_length: number;
  /** Characters of the body the dataset's copy holds. */
  kept_chars: number;
  /** The note's blocks the copy holds (its first ones). */
  kept_block_count: number;
  /** The note's blocks in all. */
  block_count: number;
}

/** Blocks of one note the "benchmark my notes" picker lists when the caller names no limit. */
export const DEFAULT_BENCHMARK_PICKER_BLOCKS = 500;
/** The most blocks of one note the picker may ask for at once. */
export const MAX_BENCHMARK_PICKER_BLOCKS = 2000;
/** Characters of a block's text its label in the picker shows, at most. */
export const BENCHMARK_BLOCK_LABEL_CHARS = 80;

/** The blocks of a note a "benchmark my notes" case can name (project addition). */
export interface BenchmarkNoteBlocksInput {
  note_id: string;
  /** Blocks listed at most: the first ones (default `DEFAULT_BENCHMARK_PICKER_BLOCKS`). */
  limit?: number;
}

/** A block's kind, as the core's block parser names it (`BlockType`). */
export const BENCHMARK_BLOCK_TYPES = [
  'heading',
  'paragraph',
  'list',
  'code',
  'quote',
  'table',
  'math',
  'html',
  'rule',
] as const;
export type BenchmarkBlockType = (typeof BENCHMARK_BLOCK_TYPES)[number];

/**
 * A block of a note as the picker lists it. Its type comes from the parser, so
 * the picker never has to guess a heading from its Markdown marker (an indented
 * code line `# step` is no heading, a tag line `#os` neither).
 */
export interface BenchmarkBlockChoiceDto {
  block_id: string;
  /**
   * The start of the block's text, whitespace folded: at most `BENCHMARK_BLOCK_LABEL_CHARS`
   * characters, ending in `…` when cut. A heading's is its words, without its marker.
   */
  label: string;
  type: BenchmarkBlockType;
  /** 1..6; headings only. */
  level?: number;
  /**
   * Whether a case may expect it: false for headings (search returns a heading with
   * its section, never alone) and for blocks with nothing to ask about: empty, a
   * rule, only inline tags, only an image.
   */
  answerable: boolean;
}

/**
 * The blocks of one note that a dataset built from notes keeps, so a case
 * can name them: the first `limit` of them, by label only. A note over
 * `MAX_BENCHMARK_NOTE_BODY` is kept only up to its last whole block within
 * it (`cut`); its blocks past that are not listed, as a case on one is refused.
 */
export interface BenchmarkNoteBlocksDto {
  note_id: string;
  title: string;
  /** In note order; fewer than `kept_block_count` when the limit stopped the list. */
  items: BenchmarkBlockChoiceDto[];
  /** The note's blocks a dataset keeps (all of them unless the note is cut). */
  kept_block_count: number;
  /** The note's blocks in all. */
  block_count: number;
  /** How a dataset cuts the note; null when it keeps it whole. */
  cut: BenchmarkCutNoteDto | null;
}

/** What "benchmark my notes" registered, and which notes it copied only in part (none: empty). */
export interface BenchmarkNotesDatasetDto extends BenchmarkDatasetDto {
  cut_notes: BenchmarkCutNoteDto[];
}

/** Asks the chosen model for a question per heading of the user's notes ("benchmark my notes"). */
export interface ProposeQuestionsInput {
  provider_id: string;
  model: string;
  note_ids?: string[];
  limit?: number;
  /**
   * Project addition: the caller's name for this proposal, so it can be
   * cancelled with `cancelProposal` while the model is still answering.
   */
  proposal_id?: string;
}

/** A cancel was accepted: the proposal's own call then fails with JOB_CANCELLED. */
export interface ProposalCancelDto {
  proposal_id: string;
  status: 'cancelling';
}

/** A proposed case: the question and the block (the first under the heading) it should find. */
export interface ProposedQuestionDto {
  note_id: string;
  note_title: string;
  heading: string;
  block_id: string;
  query: string;
}

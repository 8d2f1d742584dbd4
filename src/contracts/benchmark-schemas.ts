import { z } from 'zod';
import {
  BENCHMARK_BLOCK_LABEL_CHARS,
  BENCHMARK_BLOCK_TYPES,
  DEFAULT_BENCHMARK_PICKER_BLOCKS,
  MAX_BENCHMARK_CONCURRENCY,
  MAX_BENCHMARK_EMBEDDING_MODELS,
  MAX_BENCHMARK_NOTE_BODY,
  MAX_BENCHMARK_PICKER_BLOCKS,
  type BenchmarkCutNoteDto,
  type BenchmarkNoteBlocksDto,
} from './benchmark';
import { JOB_STATUSES } from './jobs';

/** Limits that keep an imported dataset from exhausting the worker. */
export const MAX_BENCHMARK_CASES = 5000;
export const MAX_BENCHMARK_NOTES = 20_000;
export const MAX_BENCHMARK_QUERY_LENGTH = 2000;
export const MAX_BENCHMARK_REPEAT = 20;

const idSchema = z
  .string()
  .min(1, 'must not be empty')
  .max(200, 'must be at most 200 characters')
  .regex(/^[\w.:#-]+$/u, 'may contain letters, digits and . _ - : # only');

export const benchmarkModeSchema = z.enum(['fts', 'vector', 'hybrid']);

export const benchmarkNoteSchema = z.object({
  note_id: idSchema,
  title: z.string().max(1000),
  folder: z.string().max(1000).default(''),
  tags: z.array(z.string().max(200)).max(100).default([]),
  body: z.string().max(MAX_BENCHMARK_NOTE_BODY),
  block_ids: z.array(idSchema).optional(),
  block_anchors: z
    .array(
      z
        .object({
          hash: z.string().regex(/^[0-9a-f]{16}$/u, 'must be 16 hex digits'),
          line: z.number().int().min(0),
        })
        .strict(),
    )
    .optional(),
});

export const ragCaseSchema = z.object({
  case_id: idSchema,
  query: z.string().trim().min(1, 'must not be empty').max(MAX_BENCHMARK_QUERY_LENGTH),
  expected_note_ids: z.array(idSchema).max(100),
  expected_block_ids: z.array(idSchema).max(100),
  citation_required: z.boolean().default(false),
  tags: z.array(z.string().max(200)).max(100).default([]),
});

export const agentCaseSchema = z.object({
  case_id: idSchema,
  prompt: z.string().trim().min(1, 'must not be empty').max(20_000),
  allowed_tools: z.array(z.string().min(1).max(200)).max(100),
  expected_tools: z.array(z.string().min(1).max(200)).max(100),
  expected_conditions: z
    .object({
      citation_required: z.boolean().optional(),
      tasks_created: z.number().int().min(0).max(1000).optional(),
      notes_created: z.number().int().min(0).max(1000).optional(),
      answer_contains: z.array(z.string().min(1).max(1000)).max(50).optional(),
    })
    .strict()
    .default({}),
  tags: z.array(z.string().max(200)).max(100).default([]),
});

const datasetHeader = {
  dataset_id: idSchema,
  version: z.string().min(1).max(50),
  description: z.string().max(2000).default(''),
  notes: z.array(benchmarkNoteSchema).max(MAX_BENCHMARK_NOTES).default([]),
};

export const ragDatasetSchema = z.object({
  ...datasetHeader,
  kind: z.literal('rag'),
  cases: z.array(ragCaseSchema).min(1, 'needs at least one case').max(MAX_BENCHMARK_CASES),
});

export const agentDatasetSchema = z.object({
  ...datasetHeader,
  kind: z.literal('agent'),
  cases: z.array(agentCaseSchema).min(1, 'needs at least one case').max(MAX_BENCHMARK_CASES),
});

export const benchmarkDatasetSchema = z.discriminatedUnion('kind', [ragDatasetSchema, agentDatasetSchema]);

export const retrievalSettingsSchema = z
  .object({
    top_k: z.number().int().min(1).max(100),
    rrf_k: z.number().int().min(0).max(10_000),
    rerank: z.boolean(),
    rerank_candidates: z.number().int().min(1).max(1000),
    score_threshold: z.number().finite(),
  })
  .strict()
  .partial();

export const createRagBenchmarkSchema = z
  .object({
    dataset_id: idSchema,
    modes: z
      .array(benchmarkModeSchema)
      .min(1)
      .refine((modes) => new Set(modes).size === modes.length, 'must not repeat a mode')
      .default(['fts', 'vector', 'hybrid']),
    retrieval: retrievalSettingsSchema.default({}),
    repeat: z.number().int().min(1).max(MAX_BENCHMARK_REPEAT).default(1),
    embedding: z
      .object({
        model_id: z.string().min(1).max(200),
        model_version: z.string().min(1).max(200).optional(),
        dimension: z.number().int().min(1).max(65_536).optional(),
      })
      .strict()
      .optional(),
    answer_model: z
      .object({ provider_id: z.string().min(1).max(200), model: z.string().min(1).max(200) })
      .strict()
      .nullable()
      .default(null),
    concurrency: z.number().int().min(1).max(MAX_BENCHMARK_CONCURRENCY).default(1),
    embedding_models: z
      .array(z.string().min(1).max(200))
      .min(1)
      .max(MAX_BENCHMARK_EMBEDDING_MODELS)
      .refine((ids) => new Set(ids).size === ids.length, 'must not repeat a model')
      .optional(),
    metadata: z.record(z.string(), z.unknown()).default({}),
  })
  .strict()
  .superRefine((request, context) => {
    if (request.embedding_models === undefined) return;
    if (request.embedding !== undefined) {
      context.addIssue({
        code: 'custom',
        path: ['embedding_models'],
        message: 'cannot be used together with embedding',
      });
    }
    if (!request.modes.some((mode) => mode !== 'fts')) {
      context.addIssue({
        code: 'custom',
        path: ['embedding_models'],
        message: 'needs the vector or hybrid mode',
      });
    }
  });

export const createAgentBenchmarkSchema = z
  .object({
    dataset_id: idSchema,
    provider_id: z.string().min(1).max(200),
    model: z.string().min(1).max(200),
    skill_id: z.string().min(1).max(200).nullable().default(null),
    max_steps: z.number().int().min(1).max(100).default(10),
    token_budget: z.number().int().min(100).max(10_000_000).default(20_000),
    concurrency: z.number().int().min(1).max(MAX_BENCHMARK_CONCURRENCY).default(1),
    metadata: z.record(z.string(), z.unknown()).default({}),
  })
  .strict();

export const listBenchmarkRunsSchema = z
  .object({
    kind: z.enum(['rag', 'agent']).optional(),
    status: z.enum(JOB_STATUSES).optional(),
    limit: z.number().int().min(1).max(200).default(50),
    offset: z.number().int().min(0).default(0),
  })
  .strict();

export const createDatasetFromNotesSchema = z
  .object({
    dataset_id: idSchema,
    description: z.string().max(2000).default(''),
    cases: z
      .array(
        z.object({
          block_id: z.string().min(1).max(200),
          query: z.string().trim().min(1, 'must not be empty').max(MAX_BENCHMARK_QUERY_LENGTH),
        }),
      )
      .min(1, 'needs at least one case')
      .max(MAX_BENCHMARK_CASES),
  })
  .strict();

/** "Benchmark my notes": the model that proposes a question for each heading, and which notes. */
export const proposeQuestionsSchema = z
  .object({
    provider_id: z.string().min(1).max(200),
    model: z.string().min(1).max(200),
    /** Only these notes' headings; every live note's when absent. */
    note_ids: z.array(z.string().min(1).max(200)).min(1).max(200).optional(),
    /** Headings asked about, at most (the first ones in note order). */
    limit: z.number().int().min(1).max(50).default(20),
    proposal_id: idSchema.optional(),
  })
  .strict();

export const proposalIdSchema = idSchema;

const countSchema = z.number().int().min(0);

/** A note "benchmark my notes" copied only in part (`BenchmarkCutNoteDto`). */
export const benchmarkCutNoteSchema = z
  .object({
    note_id: z.string().min(1).max(200),
    title: z.string(),
    body_length: countSchema,
    kept_chars: countSchema.max(MAX_BENCHMARK_NOTE_BODY),
    kept_block_count: countSchema,
    block_count: countSchema,
  })
  .strict()
  .refine((note) => note.kept_chars < note.body_length, {
    message: 'keeps the whole body: the note was not cut',
    path: ['kept_chars'],
  })
  .refine((note) => note.kept_block_count <= note.block_count, {
    message: 'keeps more blocks than the note has',
    path: ['kept_block_count'],
  }) satisfies z.ZodType<BenchmarkCutNoteDto>;

/** "Benchmark my notes": which note's blocks the picker lists, and how many at most. */
export const benchmarkNoteBlocksInputSchema = z
  .object({
    note_id: z.string().min(1, 'must not be empty').max(200),
    limit: z.number().int().min(1).max(MAX_BENCHMARK_PICKER_BLOCKS).default(DEFAULT_BENCHMARK_PICKER_BLOCKS),
  })
  .strict();

/** The picker's blocks of one note (`BenchmarkNoteBlocksDto`). */
export const benchmarkNoteBlocksSchema = z
  .object({
    note_id: z.string().min(1).max(200),
    title: z.string(),
    items: z
      .array(
        z
          .object({
            block_id: z.string().min(1).max(200),
            label: z.string().max(BENCHMARK_BLOCK_LABEL_CHARS),
            type: z.enum(BENCHMARK_BLOCK_TYPES),
            level: z.number().int().min(1).max(6).optional(),
            answerable: z.boolean(),
          })
          .strict(),
      )
      .max(MAX_BENCHMARK_PICKER_BLOCKS),
    kept_block_count: countSchema,
    block_count: countSchema,
    cut: benchmarkCutNoteSchema.nullable(),
  })
  .strict()
  .refine((dto) => dto.items.length <= dto.kept_block_count, {
    message: 'lists more blocks than the dataset keeps',
    path: ['items'],
  })
  .refine((dto) => dto.kept_block_count <= dto.block_count, {
    message: 'keeps more blocks than the note has',
    path: ['kept_block_count'],
  })
  .refine((dto) => dto.cut !== null || dto.kept_block_count === dto.block_count, {
    message: 'a note kept whole keeps every block',
    path: ['cut'],
  }) satisfies z.ZodType<BenchmarkNoteBlocksDto>;

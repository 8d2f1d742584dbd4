import { z } from 'zod';
import {
  errorEnvelopeSchema,
  folderSchema,
  isTerminalStatus,
  isoUtcPattern,
  jobProgressSchema,
  jobStatusSchema,
  MAX_TITLE_LENGTH,
  pageQuerySchema,
  type JobDto,
} from '../contracts';

/**
 * Wire DTOs of notes-phase2-contract.md §5 (Multimodal / Transcription). Field
 * and event names are the contract's; the routes become service methods with
 * these request and response shapes (ARCHITECTURE.md).
 */

// ---------------------------------------------------------------------------
// Ids and profiles: opaque ids only, never paths (§1.5, §5.1).
// ---------------------------------------------------------------------------

/** Something that looks like a file system path, URL or directory walk. */
const PATH_LIKE = /[/\\]|^[A-Za-z]:|^~|\.\.|^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

/** An opaque id (§4.1): any printable string, but not a path or URL. */
export const opaqueIdSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[^\s]+$/, 'an id cannot contain whitespace')
  .refine((value) => !PATH_LIKE.test(value), { message: 'expected an id, not a path' });

/**
 * `profile_id` names an app-side model profile (asr-models.ts); the request can
 * never carry a model path, directory or URL (§5.1). Hub ids such as
 * `onnx-community/whisper-tiny` are catalog data, not accepted here either.
 */
export const profileIdSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_.-]*$/,
    'profile_id must be a profile id from the catalog (letters, digits, ".", "_", "-"), not a model path',
  )
  .refine((value) => !value.includes('..'), { message: 'profile_id must not contain ".."' });

/**
 * Whisper language: an ISO 639 code ("en", "zh", "yue") or a region-tagged
 * one ("en-US"), or an English language name ("english"); null = auto (§5.1).
 */
export const languageSchema = z
  .string()
  .max(35)
  .regex(/^[A-Za-z]{2,20}(?:[-_][A-Za-z0-9]{1,8})*$/, 'expected a language code such as "en" or "zh"')
  .transform((value) => value.toLowerCase());

const MAX_METADATA_JSON = 16 * 1024;

/** §5.1: business context only; never reaches the model. */
export const metadataSchema = z
  .record(z.string(), z.unknown())
  .refine((value) => JSON.stringify(value).length <= MAX_METADATA_JSON, {
    message: `metadata must be at most ${MAX_METADATA_JSON} bytes of JSON`,
  });

// ---------------------------------------------------------------------------
// §5.1 create request.
// ---------------------------------------------------------------------------

/**
 * Strict: an unknown field (say `model_path` or `model_dir`) is a validation
 * error rather than silently ignored, so a caller cannot believe it chose a model.
 * Defaults follow the contract's example request.
 */
export const createTranscriptionSchema = z.strictObject({
  attachment_id: opaqueIdSchema,
  language: languageSchema.nullable().default(null),
  diarization: z.boolean().default(true),
  word_timestamps: z.boolean().default(false),
  profile_id: profileIdSchema.default('default'),
  metadata: metadataSchema.default({}),
});
export type CreateTranscriptionInput = z.input<typeof createTranscriptionSchema>;
export type CreateTranscriptionRequest = z.output<typeof createTranscriptionSchema>;

// ---------------------------------------------------------------------------
// §5.2 segments.
// ---------------------------------------------------------------------------

const seconds = z.number().finite().nonnegative();

/** The contract shows `words: []` without a shape; this is the project's. */
export const transcriptWordSchema = z
  .object({
    word: z.string(),
    start_time: seconds,
    end_time: seconds,
    confidence: z.number().min(0).max(1).nullable().default(null),
  })
  .refine((word) => word.end_time >= word.start_time, {
    message: 'end_time must not be before start_time',
    path: ['end_time'],
  });
export type TranscriptWord = z.output<typeof transcriptWordSchema>;

export const transcriptSegmentSchema = z
  .object({
    segment_id: z.string().min(1),
    speaker: z.string().min(1).nullable().default(null),
    start_time: seconds,
    end_time: seconds,
    text: z.string(),
    confidence: z.number().min(0).max(1).nullable().default(null),
    /** "may be empty" (§5.2): null is read as []. */
    words: z.preprocess((value) => value ?? [], z.array(transcriptWordSchema)),
  })
  .refine((segment) => segment.end_time >= segment.start_time, {
    message: 'a segment cannot have a negative duration',
    path: ['end_time'],
  });
export type TranscriptSegment = z.output<typeof transcriptSegmentSchema>;

/** §5.2: sorted by start_time, no overlaps, no negative durations. */
export const transcriptSegmentsSchema = z.array(transcriptSegmentSchema).superRefine((segments, ctx) => {
  segments.forEach((segment, index) => {
    const previous = index > 0 ? segments[index - 1] : undefined;
    if (previous && segment.start_time < previous.end_time) {
      ctx.addIssue({
        code: 'custom',
        path: [index, 'start_time'],
        message: 'segments must be sorted by start_time and must not overlap',
      });
    }
  });
});

// ---------------------------------------------------------------------------
// Warnings and events (§5.2, §5.3).
// ---------------------------------------------------------------------------

/** Warning codes the app emits; readers must accept unknown ones (§4.1). */
export const TRANSCRIPTION_WARNING_CODES = ['DIARIZATION_UNAVAILABLE'] as const;
export type TranscriptionWarningCode = (typeof TRANSCRIPTION_WARNING_CODES)[number];

/**
 * §5.3 event names, verbatim. The job runtime also publishes its lifecycle
 * `Started` between `Queued` and `ModelLoading`; subscribers must ignore names
 * they do not know (§4.1), so that is compatible.
 */
export const TRANSCRIPTION_EVENT_NAMES = [
  'Queued',
  'ModelLoading',
  'DiarizationStarted',
  'DiarizationCompleted',
  'TranscriptionStarted',
  'Progress',
  'Completed',
  'Failed',
  'Cancelled',
] as const;
export type TranscriptionEventName = (typeof TRANSCRIPTION_EVENT_NAMES)[number];

export function isTranscriptionEventName(name: string): name is TranscriptionEventName {
  return (TRANSCRIPTION_EVENT_NAMES as readonly string[]).includes(name);
}

/** `ModelLoading` data: one per file status change or whole-percent step. */
export interface ModelLoadingEventData {
  profile_id: string;
  model_id: string;
  status: 'initiate' | 'download' | 'progress' | 'done' | 'ready';
  file: string | null;
  loaded_bytes: number | null;
  total_bytes: number | null;
  /** Over all files whose size is known so far; null while unknown. */
  percent: number | null;
}

export interface DiarizationStartedEventData {
  profile_id: string | null;
}

export interface DiarizationCompletedEventData {
  status: 'completed' | 'failed';
  speaker_count: number;
  turn_count: number;
  /** When `failed`: the transcript still completes, with DIARIZATION_UNAVAILABLE. */
  error: { code: string; message: string } | null;
}

export interface TranscriptionStartedEventData {
  profile_id: string;
  model_id: string;
  language: string | null;
  duration_seconds: number;
  window_count: number;
}

// ---------------------------------------------------------------------------
// TranscriptionJob response (§5.1) and list query (§5.3).
// ---------------------------------------------------------------------------

const isoString = z.string().regex(isoUtcPattern, 'expected a UTC ISO 8601 timestamp');

export const transcriptionJobSchema = z
  .object({
    job_id: z.string().min(1),
    attachment_id: z.string().min(1),
    /** Accepts the first phase's `processing` and reads it as `running` (§4.2). */
    status: jobStatusSchema,
    progress: jobProgressSchema.nullable(),
    language: z.string().nullable(),
    diarization_enabled: z.boolean(),
    segments: z.array(transcriptSegmentSchema),
    text: z.string().nullable(),
    warnings: z.array(z.string()),
    error: errorEnvelopeSchema.shape.error.nullable(),
    created_at: isoString,
    started_at: isoString.nullable(),
    updated_at: isoString,
    completed_at: isoString.nullable(),
  })
  .superRefine((job, ctx) => {
    const terminal = isTerminalStatus(job.status);
    if (terminal !== (job.completed_at !== null)) {
      ctx.addIssue({
        code: 'custom',
        path: ['completed_at'],
        message: 'terminal jobs, and only they, have completed_at',
      });
    }
    if (job.status === 'failed' && job.error === null) {
      ctx.addIssue({ code: 'custom', path: ['error'], message: 'a failed job needs a project error code' });
    }
  });
export type TranscriptionJob = z.output<typeof transcriptionJobSchema>;

export const listTranscriptionsSchema = pageQuerySchema.extend({
  status: jobStatusSchema.optional(),
});
export type ListTranscriptionsInput = z.input<typeof listTranscriptionsSchema>;

/** What the job body returns; stored as the runtime job's `result`. */
export interface TranscriptionResult {
  language: string | null;
  segments: TranscriptSegment[];
  text: string;
  warnings: string[];
}

const CANCELLED_ERROR = {
  code: 'TRANSCRIPTION_CANCELLED',
  message: 'The transcription was cancelled.',
  details: {},
} as const;

/**
 * The runtime's generic job (input = the create request, result =
 * TranscriptionResult) seen as the contract's TranscriptionJob.
 */
export function toTranscriptionJob(job: JobDto): TranscriptionJob {
  const input = job.input as Partial<CreateTranscriptionRequest>;
  const result = job.status === 'completed' ? (job.result as TranscriptionResult | null) : null;
  return {
    job_id: job.job_id,
    attachment_id: typeof input.attachment_id === 'string' ? input.attachment_id : '',
    status: job.status,
    progress: job.progress,
    language: result?.language ?? input.language ?? null,
    diarization_enabled: input.diarization ?? true,
    segments: result?.segments ?? [],
    text: result?.text ?? null,
    warnings: result?.warnings ?? [],
    // The runtime keeps cancelled jobs error-free; the contract names the code a user sees (§5.5).
    error: job.error ?? (job.status === 'cancelled' ? CANCELLED_ERROR : null),
    created_at: job.created_at,
    started_at: job.started_at,
    updated_at: job.updated_at,
    completed_at: job.completed_at,
  };
}

// ---------------------------------------------------------------------------
// §5.4 transcript -> note request.
// ---------------------------------------------------------------------------

/**
 * Layouts the app knows. null picks `speaker_turns` when speakers are shown and
 * known, `segments` otherwise. The contract leaves template ids open.
 */
export const TRANSCRIPT_NOTE_TEMPLATES = ['segments', 'speaker_turns'] as const;
export type TranscriptNoteTemplate = (typeof TRANSCRIPT_NOTE_TEMPLATES)[number];

export const transcriptNoteSchema = z.strictObject({
  /** null: derived from the audio's name. */
  title: z.string().trim().max(MAX_TITLE_LENGTH).nullable().default(null),
  folder: folderSchema.default(''),
  include_timestamps: z.boolean().default(true),
  include_speakers: z.boolean().default(true),
  template_id: z
    .enum(TRANSCRIPT_NOTE_TEMPLATES, {
      error: `template_id must be null or one of: ${TRANSCRIPT_NOTE_TEMPLATES.join(', ')}`,
    })
    .nullable()
    .default(null),
});
export type TranscriptNoteInput = z.input<typeof transcriptNoteSchema>;
export type TranscriptNoteRequest = z.output<typeof transcriptNoteSchema>;

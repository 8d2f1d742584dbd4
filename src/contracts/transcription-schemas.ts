import { z } from 'zod';
import { jobProgressSchema, jobStatusSchema } from './job-schemas';
import { isTerminalStatus, type JobDto } from './jobs';
import { folderSchema, MAX_TITLE_LENGTH } from './notes';
import { pageQuerySchema } from './pages';
import { isoUtcPattern } from './time';
import {
  TRANSCRIPT_NOTE_TEMPLATES,
  type CreateTranscriptionRequest,
  type TranscriptionJob,
  type TranscriptionResult,
} from './transcription';
import { errorEnvelopeSchema } from './validation';

/**
 * Request and response schemas of the contract's §5 (Multimodal /
 * Transcription); the types and event names are in transcription.ts.
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
 * `profile_id` names an app-side model profile (media/asr-models.ts); the request can
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

export const listTranscriptionsSchema = pageQuerySchema.extend({
  status: jobStatusSchema.optional(),
});

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

// ---------------------------------------------------------------------------
// Transcription settings: the default profile, where the Whisper files come
// from, and whether they may be downloaded at all.
// ---------------------------------------------------------------------------

/**
 * `model_host` is either
 * - an http(s) URL laid out like the Hugging Face hub (`<host>/<model_id>/resolve/main/<file>`):
 *   the hub itself (default) or an organisation's mirror; or
 * - an absolute path on this app's own origin (`/models/`) holding plain model
 *   folders (`/models/<model_id>/<file>`): weights the app serves itself.
 * Credentials, queries and fragments are refused: the host is not a secret store.
 */
export const asrModelHostSchema = z
  .string()
  .trim()
  .min(1, 'model_host is required')
  .max(500)
  .refine((value) => isUrlHost(value) || isPathHost(value), {
    message: 'model_host must be an http(s) URL (a hub or a mirror) or a path on this app such as /models/',
  })
  .transform((value) => (value.endsWith('/') ? value : `${value}/`));

export const asrSettingsSchema = z.strictObject({
  profile_id: profileIdSchema,
  model_host: asrModelHostSchema,
  /** False: use cached or app-served files only; never download. */
  allow_remote_models: z.boolean(),
  /**
   * The speaker-labelling (diarization) model, a catalog id
   * (media/diarization-models.ts), from the same model host; null: none, and jobs
   * that ask for diarization complete with the DIARIZATION_UNAVAILABLE warning.
   */
  diarization_model: z.string().trim().min(1).max(200).nullable(),
});

export const updateAsrSettingsSchema = asrSettingsSchema.partial();

function isUrlHost(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (
    (url.protocol === 'https:' || url.protocol === 'http:') &&
    url.username === '' &&
    url.password === '' &&
    url.search === '' &&
    url.hash === ''
  );
}

function isPathHost(value: string): boolean {
  return /^\/(?!\/)[^?#\s\\]*$/.test(value) && !value.split('/').includes('..');
}

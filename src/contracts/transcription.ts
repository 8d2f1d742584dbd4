import type { z } from 'zod';
import type {
  asrSettingsSchema,
  createTranscriptionSchema,
  listTranscriptionsSchema,
  transcriptionJobSchema,
  transcriptNoteSchema,
  transcriptSegmentSchema,
  transcriptWordSchema,
  updateAsrSettingsSchema,
} from './transcription-schemas';

/**
 * Wire DTOs of the contract's §5 (Multimodal / Transcription). Field and event
 * names are the contract's; the routes become service methods with these request
 * and response shapes (docs/architecture.md, "Where each contract section lives").
 * Zod-free, so the page can import it; the schemas live in transcription-schemas.ts.
 */

export type CreateTranscriptionInput = z.input<typeof createTranscriptionSchema>;
export type CreateTranscriptionRequest = z.output<typeof createTranscriptionSchema>;
export type TranscriptWord = z.output<typeof transcriptWordSchema>;
export type TranscriptSegment = z.output<typeof transcriptSegmentSchema>;
export type TranscriptionJob = z.output<typeof transcriptionJobSchema>;
export type ListTranscriptionsInput = z.input<typeof listTranscriptionsSchema>;
export type TranscriptNoteInput = z.input<typeof transcriptNoteSchema>;
export type TranscriptNoteRequest = z.output<typeof transcriptNoteSchema>;

// ---------------------------------------------------------------------------
// Warnings and events (§5.2, §5.3).
// ---------------------------------------------------------------------------

/** Warning codes the app emits; readers must accept unknown ones (§4.1). */
export const TRANSCRIPTION_WARNING_CODES = ['DIARIZATION_UNAVAILABLE', 'CHINESE_SCRIPT_UNAVAILABLE'] as const;
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
  /**
   * Where the files come from: `network` once any is downloaded, `device` while
   * every one so far is read from this device (the browser's cache, a folder);
   * null before the first file starts. Absent from an older worker.
   */
  source?: 'network' | 'device' | null;
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

/** What the job body returns; stored as the runtime job's `result`. */
export interface TranscriptionResult {
  language: string | null;
  segments: TranscriptSegment[];
  text: string;
  warnings: string[];
}

/**
 * Layouts the app knows. null picks `speaker_turns` when speakers are shown and
 * known, `segments` otherwise. The contract leaves template ids open.
 */
export const TRANSCRIPT_NOTE_TEMPLATES = ['segments', 'speaker_turns'] as const;
export type TranscriptNoteTemplate = (typeof TRANSCRIPT_NOTE_TEMPLATES)[number];

/** §5.3 cancel: accepted means recorded; the job or its terminal event is the final answer. */
export interface OperationResponse {
  accepted: true;
  job_id: string;
  /** The job's status right after the request: `cancelled` for a queued job, still `running` for a running one. */
  status: TranscriptionJob['status'];
}

/** A citation of a block made from a transcript (§5.4). */
export interface BlockCitationDto {
  block_id: string;
  source_audio: string;
  start_time: number;
  end_time: number;
  speaker: string | null;
}

// ---------------------------------------------------------------------------
// Speech models and settings.
// ---------------------------------------------------------------------------

export const ASR_DTYPES = ['fp32', 'fp16', 'q8'] as const;
export type AsrDtype = (typeof ASR_DTYPES)[number];
export type AsrDevice = 'webgpu' | 'wasm';

/** A profile from the catalog, with what the UI shows about its model. */
export interface AsrProfileDto {
  profile_id: string;
  model_id: string;
  label: string;
  multilingual: boolean;
  parameters_millions: number | null;
  dtype: Record<AsrDevice, AsrDtype>;
  /** Approximate download per back end, MB; null for models outside the catalog. */
  approx_download_mb: Record<AsrDevice, number | null>;
}

export interface DiarizationModelDto {
  model_id: string;
  label: string;
  parameters_millions: number;
  approx_download_mb: number;
}

export type AsrSettings = z.output<typeof asrSettingsSchema>;
export type UpdateAsrSettingsInput = z.input<typeof updateAsrSettingsSchema>;

import type { EventEnvelope } from '../../contracts/events';
import type { JobStatus } from '../../contracts/jobs';
import type { TranscriptionJob, TranscriptSegment } from '../../contracts/transcription';
import { audioFailureOf, type AudioFailure } from './audio-failure';

/** What the page shows of one job while it runs: folded from its snapshot and its events. */
export interface TranscriptionLive {
  job_id: string;
  status: JobStatus;
  /** Share of the audio transcribed, 0-100; null before the first window. */
  percent: number | null;
  /** The model download while it lasts (first use); null when not loading. */
  modelLoading: ModelLoadingLive | null;
  /**
   * Where in the audio the transcription is, seconds, from the `Progress` events; null
   * before the first window or from a core that does not say.
   */
  audio: { processed: number; duration: number } | null;
  /** Estimated seconds still to transcribe, from the pace between the events' own timestamps; null while unknown. */
  secondsLeft: number | null;
  /** The timestamp of the event `secondsLeft` was estimated at: the page counts down from it (`secondsLeftAt`). */
  estimatedAt: string | null;
  /** Final segments so far, sorted by start time; the whole transcript once completed. */
  segments: TranscriptSegment[];
  warnings: string[];
  /** `audio`: why the audio could not be read, when the core said (UNSUPPORTED_AUDIO_FORMAT only). */
  error: JobError | null;
  /** Highest event sequence applied. */
  sequence: number;
  /** When `TranscriptionStarted` was published (its envelope's timestamp), for the pace. */
  transcribingSince: string | null;
  /**
   * Where in the audio a run that goes on after a closed tab (or a retry) resumes, seconds:
   * its segments so far are kept and it transcribes from there. Null for a run from the start.
   */
  resumedFrom: number | null;
}

export interface JobError {
  code: string;
  message: string;
  audio?: AudioFailure;
  /** Where in the audio (seconds) the window being transcribed began, when the core said. */
  at?: number;
}

/** A stored or event error as the page keeps it; the details are read for the audio failure and where it happened. */
function jobError(error: { code: string; message?: unknown; details?: unknown }): JobError {
  const audio = audioFailureOf(error);
  const at = record(error.details).start_time;
  return {
    code: error.code,
    message: typeof error.message === 'string' ? error.message : '',
    ...(audio && { audio }),
    ...(typeof at === 'number' && Number.isFinite(at) && at >= 0 && { at }),
  };
}

export interface ModelLoadingLive {
  percent: number | null;
  file: string | null;
  source: 'network' | 'device' | null;
  /** Each file seen, and whether it has arrived (`done`). */
  files: Readonly<Record<string, boolean>>;
  /**
   * Every file seen has arrived, weights among them: what remains is building the model
   * (an ONNX session), which reports nothing until `ready`. "Downloading: 100%" read as stuck.
   */
  preparing: boolean;
}

/** The model's weights: ONNX graphs and their external data. */
const WEIGHTS = /\.onnx(?:_data(?:_\d+)?)?$/;

export function liveFromJob(job: TranscriptionJob): TranscriptionLive {
  return {
    job_id: job.job_id,
    status: job.status,
    percent: job.status === 'completed' ? 100 : percentOf(job.progress),
    modelLoading: null,
    audio: null,
    secondsLeft: null,
    estimatedAt: null,
    segments: job.segments,
    warnings: job.warnings,
    error: job.error ? jobError(job.error) : null,
    sequence: -1,
    transcribingSince: null,
    resumedFrom: null,
  };
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

function finite(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function percentOf(progress: unknown): number | null {
  const data = record(progress);
  const percent = finite(data.percent);
  if (percent !== null) return clamp(percent);
  const current = finite(data.current);
  const total = finite(data.total);
  return current !== null && total !== null && total > 0 ? clamp((current / total) * 100) : null;
}

function clamp(percent: number): number {
  return Math.min(100, Math.max(0, percent));
}

function isSegment(value: unknown): value is TranscriptSegment {
  const data = record(value);
  return (
    typeof data.segment_id === 'string' &&
    typeof data.text === 'string' &&
    finite(data.start_time) !== null &&
    finite(data.end_time) !== null
  );
}

/** Adds live segments once each (by id), kept in start-time order. */
export function mergeSegments(
  existing: readonly TranscriptSegment[],
  incoming: readonly TranscriptSegment[],
): TranscriptSegment[] {
  const known = new Set(existing.map((segment) => segment.segment_id));
  const added = incoming.filter((segment) => !known.has(segment.segment_id));
  if (added.length === 0) return [...existing];
  return [...existing, ...added].sort((a, b) => a.start_time - b.start_time || a.end_time - b.end_time);
}

const TERMINAL: Record<string, JobStatus> = {
  Completed: 'completed',
  Failed: 'failed',
  Cancelled: 'cancelled',
};

/**
 * Folds one event (§5.3 names, plus the runtime's `Started`) into the view.
 * Replayed or out-of-date events (sequence not above the last) change nothing;
 * names it does not know are ignored (§4.1); after a terminal event only the
 * job snapshot (`liveFromJob`) can change it.
 */
export function applyTranscriptionEvent(live: TranscriptionLive, envelope: EventEnvelope): TranscriptionLive {
  if (envelope.resource_id !== live.job_id || envelope.sequence <= live.sequence) return live;
  const next = { ...live, sequence: envelope.sequence };
  if (live.status === 'completed' || live.status === 'failed' || live.status === 'cancelled') return next;
  const data = record(envelope.data);
  switch (envelope.event) {
    case 'Queued':
      // Queued again after a closed tab: it goes on after the segments already here.
      return {
        ...next,
        status: 'queued',
        ...(data.resumed === true && { resumedFrom: live.segments.at(-1)?.end_time ?? 0 }),
      };
    case 'Started':
      return { ...next, status: 'running' };
    case 'ModelLoading':
      return {
        ...next,
        status: 'running',
        modelLoading: data.status === 'ready' ? null : modelLoadingOf(live.modelLoading, data),
      };
    case 'TranscriptionStarted': {
      const duration = finite(data.duration_seconds);
      const resumedFrom = finite(data.resumed_from_seconds) ?? live.resumedFrom;
      return {
        ...next,
        status: 'running',
        modelLoading: null,
        percent: live.percent ?? 0,
        audio:
          duration !== null && duration > 0
            ? { processed: Math.min(duration, resumedFrom ?? 0), duration }
            : live.audio,
        transcribingSince: envelope.timestamp,
        resumedFrom,
      };
    }
    case 'Progress': {
      const incoming = Array.isArray(data.segments) ? data.segments.filter(isSegment) : [];
      const audio = audioOf(data) ?? live.audio;
      // The pace of this run only: the audio done before a resume took no time of it.
      const before = live.resumedFrom ?? 0;
      const left = secondsLeft(
        audio && { processed: audio.processed - before, duration: audio.duration - before },
        live.transcribingSince,
        envelope.timestamp,
      );
      return {
        ...next,
        status: 'running',
        modelLoading: null,
        percent: percentOf(data) ?? live.percent,
        segments: mergeSegments(live.segments, incoming),
        audio,
        ...(left !== null && { secondsLeft: left, estimatedAt: envelope.timestamp }),
      };
    }
    case 'Completed':
    case 'Failed':
    case 'Cancelled': {
      const error = record(data.error);
      return {
        ...next,
        status: TERMINAL[envelope.event]!,
        modelLoading: null,
        percent: envelope.event === 'Completed' ? 100 : live.percent,
        secondsLeft: null,
        estimatedAt: null,
        error: typeof error.code === 'string' ? jobError({ ...error, code: error.code }) : live.error,
      };
    }
    default:
      return next;
  }
}

function modelLoadingOf(previous: ModelLoadingLive | null, data: Record<string, unknown>): ModelLoadingLive {
  const file = typeof data.file === 'string' ? data.file : null;
  const files = { ...previous?.files };
  if (file !== null) files[file] = data.status === 'done' || files[file] === true;
  const names = Object.keys(files);
  const percent = finite(data.percent);
  return {
    percent: percent === null ? null : clamp(percent),
    file,
    source: data.source === 'network' || data.source === 'device' ? data.source : null,
    files,
    preparing: names.some((name) => WEIGHTS.test(name)) && names.every((name) => files[name]),
  };
}

function audioOf(data: Record<string, unknown>): { processed: number; duration: number } | null {
  const processed = finite(data.processed_seconds);
  const duration = finite(data.duration_seconds);
  if (processed === null || duration === null || duration <= 0) return null;
  return { processed: Math.min(duration, Math.max(0, processed)), duration };
}

/**
 * The rest of the audio at the pace so far: transcription time since `TranscriptionStarted`
 * over the audio done. Event timestamps, not the page's clock, so a page opened mid-job
 * (events replayed at once) estimates the same.
 */
export function secondsLeft(
  audio: { processed: number; duration: number } | null,
  since: string | null,
  now: string,
): number | null {
  if (!audio || since === null || audio.processed <= 0) return null;
  const elapsed = (Date.parse(now) - Date.parse(since)) / 1000;
  if (!Number.isFinite(elapsed) || elapsed < 0) return null;
  return (elapsed / audio.processed) * (audio.duration - audio.processed);
}

/**
 * The estimate counted down to `nowMs`: a window of a long lecture can take a minute on a slow
 * machine, and an estimate that stands still that long reads as stuck. Never below zero; the
 * next window's event corrects it either way.
 */
export function secondsLeftAt(
  live: Pick<TranscriptionLive, 'secondsLeft' | 'estimatedAt'>,
  nowMs: number,
): number | null {
  if (live.secondsLeft === null || live.estimatedAt === null) return live.secondsLeft;
  const since = (nowMs - Date.parse(live.estimatedAt)) / 1000;
  if (!Number.isFinite(since) || since <= 0) return live.secondsLeft;
  return Math.max(0, live.secondsLeft - since);
}

export function isTerminalTranscriptionEvent(name: string): boolean {
  return name in TERMINAL;
}

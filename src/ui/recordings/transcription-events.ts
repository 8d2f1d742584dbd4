import type { EventEnvelope } from '../../contracts/events';
import type { JobStatus } from '../../contracts/jobs';
import type { TranscriptionJob, TranscriptSegment } from '../../contracts/transcription';

/** What the page shows of one job while it runs: folded from its snapshot and its events. */
export interface TranscriptionLive {
  job_id: string;
  status: JobStatus;
  /** Share of the audio transcribed, 0-100; null before the first window. */
  percent: number | null;
  /** The model download while it lasts (first use); null when not loading. */
  modelLoading: { percent: number | null; file: string | null; source: 'network' | 'device' | null } | null;
  /** Final segments so far, sorted by start time; the whole transcript once completed. */
  segments: TranscriptSegment[];
  warnings: string[];
  error: { code: string; message: string } | null;
  /** Highest event sequence applied. */
  sequence: number;
}

export function liveFromJob(job: TranscriptionJob): TranscriptionLive {
  return {
    job_id: job.job_id,
    status: job.status,
    percent: job.status === 'completed' ? 100 : percentOf(job.progress),
    modelLoading: null,
    segments: job.segments,
    warnings: job.warnings,
    error: job.error ? { code: job.error.code, message: job.error.message } : null,
    sequence: -1,
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
      return { ...next, status: 'queued' };
    case 'Started':
      return { ...next, status: 'running' };
    case 'ModelLoading':
      return {
        ...next,
        status: 'running',
        modelLoading:
          data.status === 'ready'
            ? null
            : {
                percent: finite(data.percent) === null ? null : clamp(finite(data.percent)!),
                file: typeof data.file === 'string' ? data.file : null,
                source: data.source === 'network' || data.source === 'device' ? data.source : null,
              },
      };
    case 'TranscriptionStarted':
      return { ...next, status: 'running', modelLoading: null, percent: live.percent ?? 0 };
    case 'Progress': {
      const incoming = Array.isArray(data.segments) ? data.segments.filter(isSegment) : [];
      return {
        ...next,
        status: 'running',
        modelLoading: null,
        percent: percentOf(data) ?? live.percent,
        segments: mergeSegments(live.segments, incoming),
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
        error:
          typeof error.code === 'string'
            ? { code: error.code, message: typeof error.message === 'string' ? error.message : '' }
            : live.error,
      };
    }
    default:
      return next;
  }
}

export function isTerminalTranscriptionEvent(name: string): boolean {
  return name in TERMINAL;
}

import type { EventEnvelope } from '../../contracts/events';
import { isTerminalStatus, type JobDto, type JobProgress, type JobStatus } from '../../contracts/jobs';

export interface JobErrorInfo {
  code: string;
  message: string;
  details: Record<string, unknown>;
}

/** What the UI keeps per job: enough to draw the panel row and to react to the end. */
export interface TrackedJob {
  job_id: string;
  kind: string;
  status: JobStatus;
  progress: JobProgress | null;
  result: unknown;
  error: JobErrorInfo | null;
  /** Shown in the panel, e.g. the zip's file name. */
  label: string | null;
  /** Highest event sequence applied; older events are ignored. */
  sequence: number;
  /**
   * Another tab runs it: only that tab can cancel it, and its updates come from that tab's
   * messages, not from this tab's core.
   */
  elsewhere?: boolean;
}

export function trackedFromDto(job: JobDto, label: string | null = null): TrackedJob {
  return {
    job_id: job.job_id,
    kind: job.kind,
    status: job.status,
    progress: job.progress,
    result: job.result,
    error: job.error,
    label,
    sequence: -1,
  };
}

/** A newer snapshot of the job (e.g. the answer of `jobs.cancel`) never moves a terminal job back. */
export function mergeJobDto(tracked: TrackedJob, job: JobDto): TrackedJob {
  if (isTerminalStatus(tracked.status)) return tracked;
  return {
    ...tracked,
    status: job.status,
    progress: job.progress ?? tracked.progress,
    result: job.result,
    error: job.error,
  };
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
}

function readProgress(data: unknown, previous: JobProgress | null): JobProgress | null {
  const record = asRecord(data);
  if (!record) return previous;
  const number = (value: unknown): number | null =>
    typeof value === 'number' && Number.isFinite(value) ? value : null;
  const percent = number(record.percent);
  return {
    phase: typeof record.phase === 'string' ? record.phase : (previous?.phase ?? 'running'),
    current: number(record.current) ?? previous?.current ?? 0,
    total: number(record.total),
    percent: percent === null ? null : Math.min(100, Math.max(0, percent)),
    message: typeof record.message === 'string' ? record.message : null,
  };
}

function readError(data: unknown): JobErrorInfo {
  const inner = asRecord(asRecord(data)?.error);
  return {
    code: typeof inner?.code === 'string' ? inner.code : 'JOB_FAILED',
    message: typeof inner?.message === 'string' ? inner.message : '',
    details: asRecord(inner?.details) ?? {},
  };
}

/** Applies one job event. Events after the terminal one, or replayed twice, change nothing. */
export function applyJobEvent(job: TrackedJob, envelope: EventEnvelope): TrackedJob {
  if (envelope.sequence <= job.sequence || isTerminalStatus(job.status)) return job;
  const next: TrackedJob = { ...job, sequence: envelope.sequence };
  switch (envelope.event) {
    case 'Queued':
      return { ...next, status: 'queued' };
    case 'Started':
      return { ...next, status: 'running' };
    case 'Progress':
      return { ...next, status: 'running', progress: readProgress(envelope.data, job.progress) };
    case 'Completed':
      return { ...next, status: 'completed', result: asRecord(envelope.data)?.result ?? null };
    case 'Failed':
      return { ...next, status: 'failed', error: readError(envelope.data) };
    case 'Cancelled':
      return { ...next, status: 'cancelled' };
    default:
      return next;
  }
}

export interface ImportSummary {
  imported: number;
  skipped: number;
  /** Entries imported under another path or with repaired text. */
  changed: number;
  /** The first entry skipped, renamed or repaired, for the message. */
  first: string | null;
}

export function importSummary(result: unknown): ImportSummary | null {
  const record = asRecord(result);
  if (!record || typeof record.imported !== 'number') return null;
  const warnings = Array.isArray(record.warnings) ? record.warnings.map(asRecord) : [];
  const changed = warnings.filter(
    (warning) => warning?.action === 'renamed' || warning?.action === 'repaired',
  ).length;
  const firstPath = warnings.find((warning) => typeof warning?.path === 'string')?.path;
  return {
    imported: record.imported,
    skipped: typeof record.skipped === 'number' ? record.skipped : 0,
    changed,
    first: typeof firstPath === 'string' ? firstPath : null,
  };
}

/** The bar's value: null while the total is unknown; a completed job reads as full. */
export function displayPercent(job: Pick<TrackedJob, 'status' | 'progress'>): number | null {
  if (job.status === 'completed') return 100;
  const percent = job.progress?.percent;
  return percent === null || percent === undefined ? null : Math.round(percent);
}

export type JobKindLabel = 'import' | 'export' | 'index' | 'other';

export function jobKindLabel(kind: string): JobKindLabel {
  const lower = kind.toLowerCase();
  if (lower.startsWith('index.')) return 'index';
  if (lower.includes('import')) return 'import';
  if (lower.includes('export')) return 'export';
  return 'other';
}

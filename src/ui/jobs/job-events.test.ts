import { describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../contracts/events';
import type { JobDto } from '../../contracts/jobs';
import {
  applyJobEvent,
  displayPercent,
  importSummary,
  jobKindLabel,
  mergeJobDto,
  trackedFromDto,
} from './job-events';

const job: JobDto = {
  job_id: 'j1',
  kind: 'notes.import',
  status: 'queued',
  progress: null,
  input: {},
  result: null,
  error: null,
  created_at: '2026-03-10T12:00:00.000Z',
  started_at: null,
  updated_at: '2026-03-10T12:00:00.000Z',
  completed_at: null,
};

const envelope = (sequence: number, event: string, data: unknown = {}): EventEnvelope => ({
  id: sequence,
  sequence,
  event,
  resource_id: 'j1',
  data,
  timestamp: '2026-03-10T12:00:00.000Z',
});

describe('applyJobEvent', () => {
  it('follows the lifecycle with progress', () => {
    let tracked = trackedFromDto(job, 'notes.zip');
    tracked = applyJobEvent(tracked, envelope(1, 'Started'));
    expect(tracked.status).toBe('running');
    tracked = applyJobEvent(
      tracked,
      envelope(2, 'Progress', { phase: 'import', current: 3, total: 10, percent: 30, message: 'a.md' }),
    );
    expect(tracked.progress).toEqual({
      phase: 'import',
      current: 3,
      total: 10,
      percent: 30,
      message: 'a.md',
    });
    expect(displayPercent(tracked)).toBe(30);
    tracked = applyJobEvent(tracked, envelope(3, 'Completed', { result: { imported: 9, skipped: 1 } }));
    expect(tracked.status).toBe('completed');
    expect(importSummary(tracked.result)).toEqual({ imported: 9, skipped: 1, changed: 0, first: null });
    expect(displayPercent(tracked)).toBe(100);
  });

  it('keeps an unknown total indeterminate', () => {
    const tracked = applyJobEvent(
      trackedFromDto(job),
      envelope(1, 'Progress', { phase: 'scan', current: 4, total: null, percent: null, message: null }),
    );
    expect(displayPercent(tracked)).toBeNull();
    expect(tracked.progress?.total).toBeNull();
  });

  it('ignores replays and anything after the terminal event', () => {
    let tracked = applyJobEvent(trackedFromDto(job), envelope(5, 'Started'));
    expect(applyJobEvent(tracked, envelope(5, 'Cancelled'))).toBe(tracked);
    tracked = applyJobEvent(
      tracked,
      envelope(6, 'Failed', { error: { code: 'IMPORT_ARCHIVE_INVALID', message: 'bad' } }),
    );
    expect(tracked.error).toEqual({ code: 'IMPORT_ARCHIVE_INVALID', message: 'bad', details: {} });
    expect(applyJobEvent(tracked, envelope(7, 'Completed'))).toBe(tracked);
  });

  it('does not let a snapshot revive a finished job', () => {
    const done = applyJobEvent(trackedFromDto(job), envelope(1, 'Cancelled'));
    expect(mergeJobDto(done, { ...job, status: 'running' }).status).toBe('cancelled');
    expect(mergeJobDto(trackedFromDto(job), { ...job, status: 'running' }).status).toBe('running');
  });
});

describe('helpers', () => {
  it('reads import results defensively', () => {
    expect(importSummary({ imported: 2 })).toEqual({ imported: 2, skipped: 0, changed: 0, first: null });
    expect(
      importSummary({
        imported: 3,
        skipped: 1,
        warnings: [
          { path: 'a/../b.md', reason: 'path_outside_archive', action: 'renamed', renamed_to: 'a/b.md' },
          { path: 'c.md', reason: 'encrypted', action: 'skipped' },
          { path: 'd.md', reason: 'not_utf8', action: 'repaired' },
        ],
      }),
    ).toEqual({ imported: 3, skipped: 1, changed: 2, first: 'a/../b.md' });
    expect(importSummary(null)).toBeNull();
  });

  it('labels kinds', () => {
    expect(jobKindLabel('archive.import_zip')).toBe('import');
    expect(jobKindLabel('export')).toBe('export');
    expect(jobKindLabel('index')).toBe('other');
    expect(jobKindLabel('index.rebuild')).toBe('index');
  });
});

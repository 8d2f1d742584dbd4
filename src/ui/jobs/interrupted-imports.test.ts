import { describe, expect, it } from 'vitest';
import type { JobDto } from '../../contracts/jobs';
import { untoldInterruptedImports } from './interrupted-imports';

function job(id: string, overrides: Partial<JobDto> = {}): JobDto {
  return {
    job_id: id,
    kind: 'notes.import',
    status: 'failed',
    progress: null,
    input: {},
    result: null,
    error: {
      code: 'JOB_INTERRUPTED',
      message: 'The import of vault.zip was interrupted; nothing was imported.',
      details: { rolled_back: true, file_name: 'vault.zip' },
    },
    created_at: '2026-01-01T00:00:00.000Z',
    started_at: null,
    updated_at: '2026-01-01T00:00:00.000Z',
    completed_at: null,
    ...overrides,
  } as JobDto;
}

describe('untoldInterruptedImports', () => {
  it('tells each rolled-back import once, and nothing else', () => {
    const other = job('j3', { error: { code: 'IMPORT_ARCHIVE_INVALID', message: 'bad', details: {} } });
    const notRolledBack = job('j4', { error: { code: 'JOB_INTERRUPTED', message: 'closed', details: {} } });
    const export_ = job('j5', { kind: 'notes.export' });
    const jobs = [job('j1'), job('j2'), other, notRolledBack, export_];
    expect(untoldInterruptedImports(jobs, new Set()).map((j) => j.job_id)).toEqual(['j1', 'j2']);
    expect(untoldInterruptedImports(jobs, new Set(['j1'])).map((j) => j.job_id)).toEqual(['j2']);
  });
});

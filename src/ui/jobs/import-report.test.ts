import { describe, expect, it } from 'vitest';
import {
  NAMES_SHOWN,
  archiveTooLargeText,
  importFailure,
  importReport,
  namedNotesText,
  reportEntryText,
} from './import-report';

describe('importFailure', () => {
  it('names the entry and the limit of a bomb, with a next step, instead of a bare "too large"', () => {
    const failure = importFailure({
      code: 'PAYLOAD_TOO_LARGE',
      message: 'The entry b/x.md expands more than 1000:1, as zip bombs do.',
      details: { reason: 'ratio_too_high', entry: 'b/x.md', limit: 1000 },
    });
    expect(failure.text).toBe('The entry b/x.md expands more than 1000:1, as zip bombs do.');
    expect(failure.next).toMatch(/zip it without maximum compression/);
  });

  it('gives a note over the size limit in MiB', () => {
    const failure = importFailure({
      code: 'PAYLOAD_TOO_LARGE',
      message: '',
      details: { reason: 'entry_too_large', entry: 'v/huge.md', limit: 64 * 1024 * 1024 },
    });
    expect(failure.text).toContain('v/huge.md is larger than 64 MiB');
  });

  it('tells a zip without notes apart from a file that is no zip', () => {
    const noNotes = importFailure({
      code: 'IMPORT_ARCHIVE_INVALID',
      message: '',
      details: { reason: 'no_markdown' },
    });
    const noZip = importFailure({
      code: 'IMPORT_ARCHIVE_INVALID',
      message: '',
      details: { reason: 'invalid_zip' },
    });
    expect(noNotes.text).toMatch(/no Markdown/);
    expect(noZip.text).toMatch(/not a readable .zip/);
    expect(noZip.next).toMatch(/Import folder/);
  });

  it('falls back to the text by code for other failures', () => {
    const failure = importFailure({ code: 'JOB_INTERRUPTED', message: 'x', details: {} });
    expect(failure.text).toBe('The job was interrupted when the page closed.');
    expect(failure.next).toBeNull();
  });
});

describe('importReport', () => {
  it('keeps every renamed, repaired or skipped entry, not only the first', () => {
    const report = importReport({
      imported: 2,
      skipped: 1,
      created: 2,
      updated: 0,
      warnings: [
        { path: 'v/../up.md', reason: 'path_outside_archive', action: 'renamed', renamed_to: 'up.md' },
        { path: 'v/a.md', reason: 'duplicate_path', action: 'renamed', renamed_to: 'v/a (2).md' },
        { path: 'v/bad.md', reason: 'not_utf8', action: 'repaired' },
        { path: 'v/secret.md', reason: 'encrypted', action: 'skipped' },
      ],
    });
    expect(report?.entries.map((entry) => reportEntryText(entry))).toEqual([
      { file: 'v/../up.md → up.md', why: 'its path pointed outside the archive (“..”); moved inside' },
      { file: 'v/a.md → v/a (2).md', why: 'another file had the same name; renamed' },
      { file: 'v/bad.md', why: 'not UTF-8 text; unreadable characters were replaced with �' },
      { file: 'v/secret.md', why: 'encrypted; left out' },
    ]);
  });

  it('counts left-out files past the ones listed by name', () => {
    const report = importReport({
      created: 1,
      updated: 0,
      skipped: 0,
      left_out: 1_500,
      warnings: [
        { path: 'a.png', reason: 'not_markdown', action: 'skipped' },
        { path: 'b.md', reason: 'duplicate_path', action: 'renamed', renamed_to: 'b (2).md' },
      ],
    });
    expect(report?.entries).toHaveLength(2);
    expect(report?.count).toBe(1 + 1_500);
  });

  it('names the notes added, updated and skipped, with the title a renamed note has here', () => {
    const report = importReport({
      created: 1,
      updated: 1,
      skipped: 1,
      duplicates_skipped: 1,
      notes: {
        created: [{ note_id: 'note_new', title: '死锁' }],
        updated: [{ note_id: 'note_up', title: 'Plan', existing_title: 'Plan v2' }],
        skipped: [{ note_id: 'note_cpu', title: '进程调度', existing_title: 'CPU 调度' }],
      },
      warnings: [],
    });
    const lines = report?.named.map((named) => namedNotesText(named));
    expect(lines).toEqual([
      { label: 'New:', names: [{ note_id: 'note_new', text: '死锁' }], more: null },
      { label: 'Updated:', names: [{ note_id: 'note_up', text: 'Plan (was “Plan v2”)' }], more: null },
      {
        label: 'Skipped, already here:',
        names: [{ note_id: 'note_cpu', text: '进程调度 (here as “CPU 调度”)' }],
        more: null,
      },
    ]);
  });

  it('shows the first names of a long list and says how many more there are', () => {
    const notes = Array.from({ length: 20 }, (_, i) => ({ note_id: `note_${i}`, title: `Note ${i}` }));
    const report = importReport({ created: 57, updated: 0, skipped: 0, notes: { created: notes } });
    const [line] = report?.named.map((named) => namedNotesText(named)) ?? [];
    expect(line?.names).toHaveLength(NAMES_SHOWN);
    expect(line?.more).toBe(` and ${57 - NAMES_SHOWN} more`);
  });

  it('leaves out kinds with no names, and entries that are not names', () => {
    const report = importReport({
      created: 0,
      updated: 0,
      skipped: 2,
      duplicates_skipped: 2,
      notes: { created: [], updated: 'x', skipped: [{ note_id: null, title: 'Twin' }, { title: 3 }] },
    });
    expect(report?.named).toEqual([{ kind: 'skipped', notes: [{ note_id: null, title: 'Twin' }], count: 2 }]);
    // Results of versions before names were kept have none.
    expect(importReport({ created: 1, updated: 0, skipped: 0 })?.named).toEqual([]);
  });

  it('is null for results of other jobs', () => {
    expect(importReport({ imported: 3 })).toBeNull();
    expect(importReport(null)).toBeNull();
  });
});

describe('archiveTooLargeText', () => {
  it('names the file, its size and the limit, with a next step', () => {
    const text = archiveTooLargeText(
      {
        code: 'PAYLOAD_TOO_LARGE',
        message: 'The archive is larger than 512 MB.',
        details: { size: 513 * 1024 * 1024, limit: 512 * 1024 * 1024 },
      },
      'vault.zip',
    );
    expect(text).toBe(
      'Import of vault.zip failed: The file is 513 MiB; an archive may have at most 512 MiB. Split the vault into several smaller zips and import them one by one.',
    );
  });

  it('leaves other errors to the generic report', () => {
    expect(archiveTooLargeText({ code: 'PAYLOAD_TOO_LARGE', message: '', details: {} }, 'v.zip')).toBeNull();
    expect(
      archiveTooLargeText({ code: 'STORAGE_QUOTA_EXCEEDED', details: { size: 1, limit: 1 } }, 'v.zip'),
    ).toBeNull();
  });
});

import { unzipSync } from 'fflate';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EventEnvelope } from '../contracts';
import type { JobRuntime } from '../core/job-runtime';
import { DEFAULT_IMPORT_LIMITS, markdownFileFromNote, writeZipArchive } from '../core/markdown-archive';
import { DEFAULT_PAGE_ROWS, NotesRepository, type AttachmentRepository } from '../db';
import { ArchiveService, reimportProblems } from './archive-service';
import { testCore } from './test-core';
import { PagedNotesFake } from './test-paged-notes';

/** An archive service over the fake notebook; export needs neither attachments nor jobs. */
function exporterOver(fake: PagedNotesFake): ArchiveService {
  const runtime = { register: () => undefined } as unknown as JobRuntime;
  return new ArchiveService(fake as unknown as NotesRepository, {} as AttachmentRepository, runtime);
}

const text = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes);

describe('exporting a notebook a page at a time', () => {
  it('writes every note, holding a page at a time and reading the huge one whole once', async () => {
    const fake = new PagedNotesFake();
    for (let i = 0; i < 450; i++) {
      fake.add({
        note_id: `note_${String(i).padStart(3, '0')}`,
        title: i % 100 === 0 ? 'Same name' : `Note ${i}`,
        folder: i % 2 ? 'work' : '',
        body: `Body ${i}\n`,
        created_at: `2026-01-01T00:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.000Z`,
      });
    }
    const hugeBody = 'log line\n'.repeat(400_000);
    fake.add({
      note_id: 'note_huge',
      title: 'Huge log',
      body: hugeBody,
      created_at: '2025-01-01T00:00:00.000Z',
    });
    fake.add({ note_id: 'note_gone', title: 'Trashed', body: 'x', deleted_at: '2026-01-02T00:00:00.000Z' });

    const { data, file_name } = await exporterOver(fake).exportAll();
    expect(file_name).toMatch(/^notesagent-export-\d{4}-\d{2}-\d{2}\.zip$/);
    const files = unzipSync(new Uint8Array(await data.arrayBuffer()));
    expect(Object.keys(files)).toHaveLength(451);
    const huge = text(files['NotesAgent/Huge log.md']);
    expect(huge.startsWith('---\ntitle: Huge log\n')).toBe(true);
    expect(huge.endsWith(hugeBody)).toBe(true);
    // The oldest of the same-named notes keeps the plain name, as exports always did.
    expect(text(files['NotesAgent/Same name.md'])).toContain('note_id: note_000');
    expect(text(files['NotesAgent/Same name (2).md'])).toContain('note_id: note_100');
    expect(text(files['NotesAgent/work/Note 7.md'])).toContain('Body 7\n');

    expect(fake.wholeNotebookReads).toBe(0);
    expect(fake.pages).toBeGreaterThanOrEqual(3);
    expect(fake.peakRows).toBeLessThanOrEqual(DEFAULT_PAGE_ROWS);
    expect(fake.overlapping).toBe(false);
    expect(fake.wholeReads.get('note_huge')).toBe(1);
    expect(Math.max(...fake.wholeReads.values())).toBe(1);
  });

  it('an empty notebook gives an empty archive', async () => {
    const { data } = await exporterOver(new PagedNotesFake()).exportAll();
    expect(Object.keys(unzipSync(new Uint8Array(await data.arrayBuffer())))).toEqual([]);
  });

  it('a read failing mid-export rejects, and no archive comes back', async () => {
    const fake = new PagedNotesFake();
    for (let i = 0; i < 450; i++) fake.add({ note_id: `note_${i}`, title: `Note ${i}`, body: 'b' });
    fake.failOnPage = 2;
    await expect(exporterOver(fake).exportAll()).rejects.toThrow('the disk went away');
    expect(fake.pages).toBe(1);
  });
});

describe('an export that the import would refuse', () => {
  const MIB = 1024 * 1024;

  it('names a note over the import’s entry limit, written whole all the same; a normal export has no problem', async () => {
    const fake = new PagedNotesFake();
    fake.add({ note_id: 'note_small', title: 'Small', body: 'Fine.\n' });
    expect((await exporterOver(fake).exportAll()).reimport_problems).toEqual([]);

    // Varied lines, so it is refused for its size, not its ratio.
    const line = (i: number) => `${i} ${(i * 7919).toString(36)} log entry\n`;
    let body = '';
    for (let i = 0; body.length <= DEFAULT_IMPORT_LIMITS.max_entry_bytes; i++) body += line(i).repeat(1000);
    fake.add({ note_id: 'note_huge', title: 'Huge log', body });
    const { data, reimport_problems } = await exporterOver(fake).exportAll();
    expect(reimport_problems).toHaveLength(1);
    const [problem] = reimport_problems;
    expect(problem).toMatchObject({
      reason: 'entry_too_large',
      note_id: 'note_huge',
      title: 'Huge log',
      path: 'NotesAgent/Huge log.md',
      limit: 64 * MIB,
    });
    const entry = unzipSync(new Uint8Array(await data.arrayBuffer()))['NotesAgent/Huge log.md']!;
    expect(problem && 'bytes' in problem && problem.bytes).toBe(entry.length);
    expect(entry.length).toBeGreaterThan(body.length);
  }, 120_000);

  it('checks each entry’s size and ratio and the entries’ count and total against the import’s limits', () => {
    const limits = {
      ...DEFAULT_IMPORT_LIMITS,
      max_entries: 3,
      max_entry_bytes: 100,
      max_total_bytes: 250,
      max_ratio: 10,
      ratio_floor_bytes: 50,
    };
    const entry = (id: string, bytes: number, written: number) => ({
      note_id: id,
      title: id,
      path: `NotesAgent/${id}.md`,
      bytes,
      written,
    });
    // Within every limit: exactly at the entry limit, a ratio of exactly 10:1, small ones below the ratio floor.
    expect(reimportProblems([entry('a', 100, 10), entry('b', 40, 1), entry('c', 100, 50)], limits)).toEqual(
      [],
    );
    expect(
      reimportProblems(
        [entry('big', 101, 90), entry('bomb', 99, 9), entry('tiny', 49, 1), entry('d', 10, 10)],
        limits,
      ),
    ).toEqual([
      {
        reason: 'entry_too_large',
        note_id: 'big',
        title: 'big',
        path: 'NotesAgent/big.md',
        bytes: 101,
        limit: 100,
      },
      {
        reason: 'ratio_too_high',
        note_id: 'bomb',
        title: 'bomb',
        path: 'NotesAgent/bomb.md',
        bytes: 99,
        limit: 10,
      },
      { reason: 'too_many_entries', count: 4, bytes: 259, limit: 3 },
      { reason: 'total_too_large', count: 4, bytes: 259, limit: 250 },
    ]);
  });
});

describe('import de-duplication against a notebook with a large note', () => {
  let current: ReturnType<typeof testCore>;
  afterEach(async () => {
    vi.restoreAllMocks();
    await current?.idle();
    await current?.close();
  });

  async function run(data: Uint8Array, on_duplicate: 'skip' | 'update') {
    const job = await current.api.archive.importZip({ data, file_name: 'vault.zip', on_duplicate });
    const seen: EventEnvelope[] = [];
    await current.api.events.subscribe(job.job_id, 0, (e) => seen.push(e)).closed;
    return current.api.jobs.get(job.job_id);
  }

  function zipOf(notes: Array<{ title: string; body: string; note_id?: string }>): Uint8Array {
    const taken = new Set<string>();
    return writeZipArchive(
      notes.map(({ title, body, note_id }) =>
        markdownFileFromNote({ title, folder: '', body, tags: [], extra: note_id ? { note_id } : {} }, taken),
      ),
    );
  }

  it('finds duplicates by content and by id without reading notes that cannot match', async () => {
    current = testCore();
    const api = current.api;
    const big = await api.notes.create({ title: 'Big', body: 'big line\n'.repeat(100_000) });
    const groceries = await api.notes.create({ title: 'Groceries', body: 'Oat milk, rice.' });
    const plan = await api.notes.create({ title: 'Plan', body: 'Old plan.' });
    const paged = vi.spyOn(NotesRepository.prototype, 'readPaged');
    const single = vi.spyOn(NotesRepository.prototype, 'get');
    const all = vi.spyOn(NotesRepository.prototype, 'all');
    const bodiesRead = () => [
      ...paged.mock.calls.flatMap(([ids]) => [...ids]),
      ...single.mock.calls.map(([id]) => id),
    ];

    const archive = zipOf([
      { title: 'Groceries', body: 'Oat milk, rice.' },
      { title: 'Plan', body: 'New plan, changed elsewhere.', note_id: plan.note_id },
      { title: 'Fresh', body: 'A note not here yet.' },
    ]);
    const skipped = await run(archive, 'skip');
    expect(skipped.result).toMatchObject({ created: 1, updated: 0, duplicates_skipped: 2 });
    // Only the same-shaped note's body was read to compare; the big one never, nothing whole-notebook.
    expect(bodiesRead()).not.toContain(big.note_id);
    expect(bodiesRead()).toContain(groceries.note_id);
    expect(all).not.toHaveBeenCalled();

    paged.mockClear();
    single.mockClear();
    // Every note of the archive is here now ("Fresh" came with the first run): all three are overwritten.
    const updated = await run(archive, 'update');
    expect(updated.result).toMatchObject({ created: 0, updated: 3, duplicates_skipped: 0 });
    expect((await api.notes.get(plan.note_id)).body).toBe('New plan, changed elsewhere.');
    expect(bodiesRead()).not.toContain(big.note_id);
  });

  it('a cancel while existing notes are compared leaves nothing behind', async () => {
    current = testCore();
    const api = current.api;
    for (let i = 0; i < 3; i++) await api.notes.create({ title: `Note ${i}`, body: `body ${i}` });
    const before = (await api.notes.list()).page.total;
    const original = NotesRepository.prototype.forEachSummaryPage;
    const summaries = vi
      .spyOn(NotesRepository.prototype, 'forEachSummaryPage')
      .mockImplementationOnce(async function (this: NotesRepository, ids, visit, options) {
        // The user cancels while the notebook is being compared: the next page check stops the job.
        const [job] = (await api.jobs.list({ status: 'running' })).items;
        await api.jobs.cancel(job!.job_id);
        return original.call(this, ids, visit, options);
      });
    const result = await run(zipOf([{ title: 'Fresh', body: 'new' }]), 'skip');
    expect(summaries).toHaveBeenCalled();
    expect(result.status).toBe('cancelled');
    expect((await api.notes.list()).page.total).toBe(before);
  });
});

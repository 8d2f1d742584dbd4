import { afterEach, describe, expect, it } from 'vitest';
import {
  IMPORT_NAMED_NOTES,
  type AppError,
  type EventEnvelope,
  type ImportResult,
  type NoteDto,
} from '../contracts';
import { deflateSync, strToU8, unzipSync, zipSync } from 'fflate';
import { markdownFileFromNote, writeZipArchive } from '../core/markdown-archive';
import { rawZip } from '../core/test-zips';
import { testCore } from './test-core';

let current: ReturnType<typeof testCore>;
// Imports start indexing in the background; let it settle before the database goes.
afterEach(async () => {
  await current?.idle();
  await current?.close();
});
function setup() {
  current = testCore();
  return current.api;
}

function zipOf(count: number, folder = 'vault'): Uint8Array {
  const taken = new Set<string>();
  const files = Array.from({ length: count }, (_, i) =>
    markdownFileFromNote(
      {
        title: i % 2 ? `笔记 ${i}` : `Note ${i}`,
        folder: `${folder}/${i % 3 ? '课程' : 'work'}`,
        body: `# Heading ${i}\n\n正文 [[Note ${i + 1}]] body ${i}.\n`,
        tags: i % 5 ? ['t'] : [],
        extra: {},
      },
      taken,
    ),
  );
  return writeZipArchive(files);
}

/** The export's archive as bytes (the service hands a Blob, as the page downloads it). */
async function exportedBytes(api: ReturnType<typeof setup>): Promise<Uint8Array> {
  return new Uint8Array(await (await api.archive.exportAll()).data.arrayBuffer());
}

async function finished(jobId: string): Promise<EventEnvelope[]> {
  const seen: EventEnvelope[] = [];
  await current.api.events.subscribe(jobId, 0, (e) => seen.push(e)).closed;
  return seen;
}

/** The job's events to the end, cancelling it once, at the first event `when` accepts. */
async function cancelledWhen(jobId: string, when: (e: EventEnvelope) => boolean): Promise<EventEnvelope[]> {
  let cancelled = false;
  const seen: EventEnvelope[] = [];
  await current.api.events.subscribe(jobId, 0, (e) => {
    seen.push(e);
    if (!cancelled && when(e)) {
      cancelled = true;
      void current.api.jobs.cancel(jobId);
    }
  }).closed;
  return seen;
}

/** A progress event reporting at least `count` items done. */
const progressPast = (count: number) => (e: EventEnvelope) =>
  e.event === 'Progress' && ((e.data as { current?: number }).current ?? 0) >= count;

const comparable = (notes: NoteDto[]) =>
  notes
    .map(({ title, folder, body, tags, created_at, updated_at }) => ({
      title,
      folder,
      body,
      tags,
      created_at,
      updated_at,
    }))
    .sort((a, b) => `${a.folder}/${a.title}`.localeCompare(`${b.folder}/${b.title}`));

async function allNotes(): Promise<NoteDto[]> {
  const page = await current.api.notes.list({ limit: 200 });
  return Promise.all(page.items.map((item) => current.api.notes.get(item.note_id)));
}

describe('ArchiveService', () => {
  it('imports a zip as a job with progress, then export and re-import give the same notes', async () => {
    const api = setup();
    const job = await api.archive.importZip({ data: zipOf(60), file_name: 'vault.zip' });
    expect(job.status).toBe('queued');
    const events = await finished(job.job_id);
    const names = events.map((e) => e.event);
    expect(names[0]).toBe('Queued');
    expect(names.at(-1)).toBe('Completed');
    const progress = events
      .filter((e) => e.event === 'Progress')
      .map((e) => e.data as { current: number; total: number | null });
    expect(progress.at(-1)).toMatchObject({ current: 60, total: 60 });
    expect(progress.length).toBeGreaterThan(3);
    expect((await api.jobs.get(job.job_id)).result).toMatchObject({ imported: 60, skipped: 0 });
    expect(await api.notes.folders()).toEqual(
      expect.arrayContaining([
        { path: '课程', note_count: 40 },
        { path: 'work', note_count: 20 },
      ]),
    );

    const original = comparable(await allNotes());
    const exported = await api.archive.exportAll();
    expect(exported.file_name).toMatch(/^notesagent-export-\d{4}-\d{2}-\d{2}\.zip$/);

    const second = setup();
    const again = await second.archive.importZip({ data: exported.data, file_name: exported.file_name });
    await finished(again.job_id);
    expect(comparable(await allNotes())).toEqual(original);
  });

  it('imports picked folder files into a target folder', async () => {
    const api = setup();
    const job = await api.archive.importFiles({
      files: [
        { path: 'MyNotes/a.md', content: '---\ntitle: Alpha\ntags: [x]\n---\nBody A\n' },
        { path: 'MyNotes/sub/b.md', content: 'Body B' },
        { path: 'MyNotes/image.png', content: 'not markdown' },
      ],
      target_folder: 'Imported',
    });
    await finished(job.job_id);
    const notes = comparable(await allNotes());
    expect(notes.map((n) => [n.folder, n.title, n.body, n.tags])).toEqual([
      ['Imported', 'Alpha', 'Body A\n', ['x']],
      ['Imported/sub', 'b', 'Body B', []],
    ]);
  });

  it('imports a zip handed over as a Blob (the picked file, not read by the page), leaving no attachment', async () => {
    const api = setup();
    const job = await api.archive.importZip({
      data: new Blob([zipOf(3) as Uint8Array<ArrayBuffer>], { type: 'application/zip' }),
      file_name: 'vault.zip',
    });
    expect((await finished(job.job_id)).at(-1)?.event).toBe('Completed');
    expect((await api.jobs.get(job.job_id)).result).toMatchObject({ imported: 3, created: 3 });
    expect((await api.notes.list()).page.total).toBe(3);
    expect(await current.db.attachments.count()).toBe(0);
  });

  it('rejects invalid input before creating a job', async () => {
    const api = setup();
    const code = (p: Promise<unknown>) =>
      p.then(
        () => 'none',
        (e: AppError) => e.code,
      );
    expect(await code(api.archive.importZip({ data: new Uint8Array(), file_name: 'a.zip' }))).toBe(
      'VALIDATION_FAILED',
    );
    expect(await code(api.archive.importZip({ data: new Blob([]), file_name: 'a.zip' }))).toBe(
      'VALIDATION_FAILED',
    );
    expect(await code(api.archive.importZip({ data: 'zip' as unknown as Blob, file_name: 'a.zip' }))).toBe(
      'VALIDATION_FAILED',
    );
    expect(await code(api.archive.importFiles({ files: [] }))).toBe('VALIDATION_FAILED');
    expect(await code(api.archive.importFiles({ files: [{ path: 'a.txt', content: 'x' }] }))).toBe(
      'IMPORT_FILE_INVALID',
    );
    expect((await api.jobs.list()).page.total).toBe(0);
  });

  it('fails a job for a corrupt archive with IMPORT_ARCHIVE_INVALID and imports nothing', async () => {
    const api = setup();
    const job = await api.archive.importZip({
      data: new TextEncoder().encode('not a zip at all'),
      file_name: 'bad.zip',
    });
    const events = await finished(job.job_id);
    expect(events.at(-1)).toMatchObject({
      event: 'Failed',
      data: { error: { code: 'IMPORT_ARCHIVE_INVALID' } },
    });
    expect((await api.jobs.get(job.job_id)).status).toBe('failed');
    expect((await api.notes.list()).page.total).toBe(0);
    expect(await current.db.attachments.count()).toBe(0);
  });

  it('says a readable zip without notes has no Markdown, not that it is no zip', async () => {
    const api = setup();
    const job = await api.archive.importZip({
      data: zipSync({ 'vault/cover.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47]) }),
      file_name: 'images.zip',
    });
    const events = await finished(job.job_id);
    expect(events.at(-1)).toMatchObject({
      event: 'Failed',
      data: { error: { code: 'IMPORT_ARCHIVE_INVALID', details: { reason: 'no_markdown' } } },
    });
    expect(await current.db.attachments.count()).toBe(0);
  });

  it('cancelling mid-import removes the notes it had written', async () => {
    const api = setup();
    const job = await api.archive.importZip({ data: zipOf(300), file_name: 'big.zip' });
    const seen = await cancelledWhen(job.job_id, progressPast(50));
    expect(seen.at(-1)?.event).toBe('Cancelled');
    expect(seen.filter((e) => ['Completed', 'Failed', 'Cancelled'].includes(e.event))).toHaveLength(1);
    expect((await api.jobs.get(job.job_id)).status).toBe('cancelled');
    expect((await api.notes.list()).page.total).toBe(0);
    expect(await current.db.attachments.count()).toBe(0);
    await expect(api.jobs.cancel(job.job_id)).rejects.toMatchObject({ code: 'STATE_CONFLICT' });
    await expect(api.jobs.get('job_none')).rejects.toMatchObject({ code: 'JOB_NOT_FOUND' });
  });

  it('refuses a zip bomb with PAYLOAD_TOO_LARGE naming the entry and the limit, leaving nothing', async () => {
    const api = setup();
    const bomb = rawZip(
      Array.from({ length: 10 }, (_, i) => ({
        name: `vault/n${i}.md`,
        data: deflateSync(strToU8('x')),
        method: 8 as const,
        declared_size: 100 * 1024 * 1024,
      })),
    );
    const job = await api.archive.importZip({ data: bomb, file_name: 'bomb.zip' });
    const events = await finished(job.job_id);
    expect(events.at(-1)).toMatchObject({
      event: 'Failed',
      data: {
        error: {
          code: 'PAYLOAD_TOO_LARGE',
          details: { reason: 'entry_too_large', entry: 'vault/n0.md', limit: 64 * 1024 * 1024 },
        },
      },
    });
    expect((await api.notes.list()).page.total).toBe(0);
    expect(await current.db.attachments.count()).toBe(0);
  });

  it('reports renamed and repaired entries, and keeps unknown front-matter keys through export', async () => {
    const api = setup();
    const zip = rawZip([
      { name: 'v/../../up.md', data: strToU8('up') },
      { name: 'v/same.md', data: strToU8('first') },
      { name: 'v/same.md', data: strToU8('second') },
      { name: 'v/bytes.md', data: new Uint8Array([0x61, 0xff]) },
      { name: 'v/bad-yaml.md', data: strToU8('---\na: [\n---\ntext') },
      { name: 'v/meta.md', data: strToU8('---\ntitle: Meta\nauthor: Ada\n---\nBody\n') },
      { name: 'v/cover.png', data: new Uint8Array([0x89, 0x50]) },
      { name: 'v/.obsidian/app.json', data: strToU8('{}') },
    ]);
    const job = await api.archive.importZip({ data: zip, file_name: 'vault.zip' });
    await finished(job.job_id);
    const { result } = await api.jobs.get(job.job_id);
    expect(result).toEqual({
      imported: 6,
      skipped: 0,
      created: 6,
      updated: 0,
      duplicates_skipped: 0,
      skipped_changed: 0,
      // The picture is no note: said apart from the notes skipped; the app's settings are not said.
      left_out: 1,
      // No note links it.
      pictures: 0,
      notes: {
        created: expect.arrayContaining([{ note_id: expect.any(String), title: 'Meta' }]),
        updated: [],
        skipped: [],
      },
      warnings: [
        { path: 'v/../../up.md', reason: 'path_outside_archive', action: 'renamed', renamed_to: 'v/up.md' },
        { path: 'v/same.md', reason: 'duplicate_path', action: 'renamed', renamed_to: 'v/same (2).md' },
        { path: 'v/cover.png', reason: 'not_markdown', action: 'skipped' },
        { path: 'v/bytes.md', reason: 'not_utf8', action: 'repaired' },
        { path: 'v/bad-yaml.md', reason: 'invalid_front_matter', action: 'repaired' },
      ],
    });
    const notes = await allNotes();
    expect(notes.map((n) => n.title).sort()).toEqual(['Meta', 'bad-yaml', 'bytes', 'same', 'same (2)', 'up']);
    expect(notes.find((n) => n.title === 'bad-yaml')?.body).toBe('---\na: [\n---\ntext');
    const meta = notes.find((n) => n.title === 'Meta');
    expect(meta?.body).toBe('---\nauthor: Ada\n---\nBody\n');
    const exported = unzipSync(await exportedBytes(api));
    const file = Object.entries(exported).find(([path]) => path.endsWith('Meta.md'));
    expect(new TextDecoder().decode(file?.[1])).toMatch(/^---\ntitle: Meta\n[^]*author: Ada\n---\nBody\n$/);
    expect(await current.db.attachments.count()).toBe(0);
  });

  it('gives an Obsidian note its created date and exports it under created, as it came in', async () => {
    const api = setup();
    const source = '---\ncreated: 2021-03-04\ndate: 2020-12-31\n---\nDiary text\n';
    const job = await api.archive.importZip({
      data: rawZip([{ name: 'vault/Diary.md', data: strToU8(source) }]),
      file_name: 'vault.zip',
    });
    await finished(job.job_id);
    const [note] = await allNotes();
    expect(note?.created_at).toBe('2021-03-04T00:00:00.000Z');
    expect(note?.body).toBe(source);
    const exported = unzipSync(await exportedBytes(api));
    const file = Object.entries(exported).find(([path]) => path.endsWith('Diary.md'));
    const text = new TextDecoder().decode(file?.[1]);
    expect(text).toMatch(/\ncreated: 2021-03-04\ndate: 2020-12-31\n---\nDiary text\n$/);
    expect(text).not.toContain('created_at');
    // The notebook's own date for the rest: the note was written here on import.
    expect(text).toContain(`\nupdated_at: ${note?.updated_at}\n`);
  });

  describe('importing what is already here', () => {
    const importZip = async (
      data: Uint8Array,
      on_duplicate?: 'skip' | 'update' | 'keep_both',
    ): Promise<{ status: string; result: unknown }> => {
      const job = await current.api.archive.importZip({
        data,
        file_name: 'vault.zip',
        ...(on_duplicate ? { on_duplicate } : {}),
      });
      await finished(job.job_id);
      const { status, result } = await current.api.jobs.get(job.job_id);
      return { status, result };
    };

    it('the same zip twice with skip (the default) adds nothing and reports every note skipped', async () => {
      setup();
      const zip = zipOf(30);
      expect((await importZip(zip)).result).toMatchObject({ created: 30, updated: 0, duplicates_skipped: 0 });
      const before = comparable(await allNotes());
      expect((await importZip(zip)).result).toMatchObject({
        imported: 0,
        created: 0,
        updated: 0,
        duplicates_skipped: 30,
        skipped: 30,
      });
      expect(comparable(await allNotes())).toEqual(before);
    });

    it('keep_both adds the copies, as imports did before', async () => {
      setup();
      const zip = zipOf(4);
      await importZip(zip);
      expect((await importZip(zip, 'keep_both')).result).toMatchObject({ created: 4, duplicates_skipped: 0 });
      expect((await current.api.notes.list()).page.total).toBe(8);
    });

    it('an exported note is found by its id after it changed: update overwrites it, skip leaves it', async () => {
      const api = setup();
      const note = await api.notes.create({
        title: 'Plan',
        folder: 'work',
        body: 'Version one\n',
        tags: ['a'],
      });
      const exported = await exportedBytes(api);
      const file = Object.entries(unzipSync(exported))[0];
      expect(new TextDecoder().decode(file?.[1])).toContain(`note_id: ${note.note_id}`);
      await api.notes.update({ note_id: note.note_id, body: 'Version two, edited here\n' });

      expect((await importZip(exported, 'skip')).result).toMatchObject({ created: 0, duplicates_skipped: 1 });
      expect((await api.notes.get(note.note_id)).body).toBe('Version two, edited here\n');

      expect((await importZip(exported, 'update')).result).toMatchObject({
        imported: 1,
        created: 0,
        updated: 1,
        duplicates_skipped: 0,
      });
      const restored = await api.notes.get(note.note_id);
      // The id is bookkeeping: it does not end up in the note's text.
      expect(restored).toMatchObject({ title: 'Plan', folder: 'work', body: 'Version one\n', tags: ['a'] });
      expect((await api.notes.list()).page.total).toBe(1);
      // Committed: what it overwrote is no longer staged for a roll-back.
      expect(await current.db.table('import_staging').count()).toBe(0);
    });

    it('a note repeated inside one archive is imported once', async () => {
      setup();
      const taken = new Set<string>();
      const same = { title: 'Twin', folder: '', body: 'same text', tags: [], extra: {} };
      const zip = writeZipArchive([markdownFileFromNote(same, taken), markdownFileFromNote(same, taken)]);
      expect((await importZip(zip)).result).toMatchObject({ created: 1, duplicates_skipped: 1 });
    });

    describe('a vault from another app, edited and imported again', () => {
      /** alpha.md and beta.md as an Obsidian vault has them: no id of ours. */
      const vault = (alpha: string) =>
        writeZipArchive([
          { path: 'vault/projects/alpha.md', content: alpha },
          { path: 'vault/projects/beta.md', content: '# Beta\n\nunchanged\n' },
        ]);
      const first = vault('# Alpha\n\nfirst draft\n');
      const edited = vault('# Alpha\n\nfirst draft, then edited in Obsidian\n');
      const alphaNote = async () => {
        const notes = (await allNotes()).filter((note) => note.title === 'alpha');
        expect(notes).toHaveLength(1);
        return notes[0] as NoteDto;
      };

      it('update finds alpha.md by its folder and title and overwrites that note; its old text stays in the history', async () => {
        const api = setup();
        await importZip(first);
        const before = await alphaNote();
        expect(before.folder).toBe('projects');
        expect((await importZip(edited, 'update')).result).toMatchObject({
          created: 0,
          updated: 2,
          duplicates_skipped: 0,
          skipped_changed: 0,
        });
        const after = await alphaNote();
        expect(after.note_id).toBe(before.note_id);
        expect(after.body).toBe('# Alpha\n\nfirst draft, then edited in Obsidian\n');
        expect((await api.notes.list()).page.total).toBe(2);
        const versions = await api.history.list(after.note_id);
        const bodies = await Promise.all(
          versions.map(async (v) => (await api.history.get(v.version_id)).body),
        );
        expect(bodies).toContain('# Alpha\n\nfirst draft\n');
      });

      it('skip leaves the note and reports the skipped file that differs', async () => {
        setup();
        await importZip(first);
        expect((await importZip(edited, 'skip')).result).toMatchObject({
          created: 0,
          updated: 0,
          duplicates_skipped: 2,
          skipped_changed: 1,
        });
        expect((await alphaNote()).body).toBe('# Alpha\n\nfirst draft\n');
      });

      it('keep_both adds the edited file as another note', async () => {
        setup();
        await importZip(first);
        expect((await importZip(edited, 'keep_both')).result).toMatchObject({ created: 2 });
        expect((await allNotes()).filter((note) => note.title === 'alpha')).toHaveLength(2);
      });

      it('a place two notes share matches neither: the edited file is added, nothing is overwritten', async () => {
        const api = setup();
        // Written here, not imported: no file is known for either alpha, only their place.
        await api.notes.create({ title: 'alpha', folder: 'projects', body: '# Alpha\n\nfirst draft\n' });
        await api.notes.create({ title: 'beta', folder: 'projects', body: '# Beta\n\nunchanged\n' });
        const other = await api.notes.create({
          title: 'alpha',
          folder: 'projects',
          body: 'a second alpha\n',
        });
        expect((await importZip(edited, 'update')).result).toMatchObject({ created: 1, updated: 1 });
        const alphas = (await allNotes()).filter((note) => note.title === 'alpha').map((note) => note.body);
        expect(alphas.sort()).toEqual(
          [
            '# Alpha\n\nfirst draft\n',
            '# Alpha\n\nfirst draft, then edited in Obsidian\n',
            'a second alpha\n',
          ].sort(),
        );
        expect((await api.notes.get(other.note_id)).body).toBe('a second alpha\n');
      });

      it('the note imported from alpha.md is updated, not a second alpha made here since', async () => {
        const api = setup();
        await importZip(first);
        const imported = await alphaNote();
        const other = await api.notes.create({
          title: 'alpha',
          folder: 'projects',
          body: 'a second alpha\n',
        });
        expect((await importZip(edited, 'update')).result).toMatchObject({ created: 0, updated: 2 });
        expect((await api.notes.get(imported.note_id)).body).toBe(
          '# Alpha\n\nfirst draft, then edited in Obsidian\n',
        );
        expect((await api.notes.get(other.note_id)).body).toBe('a second alpha\n');
      });

      it('a note exported from this notebook is matched by its id, never by its place', async () => {
        const api = setup();
        const mine = await api.notes.create({ title: 'alpha', folder: 'projects', body: 'mine\n' });
        // Another notebook's export: an id this notebook does not have, at the same place.
        const foreign = writeZipArchive([
          {
            path: 'NotesAgent/projects/alpha.md',
            content: '---\ntitle: alpha\nnote_id: note_fromanothernotebook\n---\ntheirs\n',
          },
        ]);
        expect((await importZip(foreign, 'update')).result).toMatchObject({ created: 1, updated: 0 });
        expect((await api.notes.get(mine.note_id)).body).toBe('mine\n');
      });
    });

    describe('a note renamed in the app, then its vault imported again', () => {
      const SCHEDULING = '进程调度决定哪个就绪进程下一个占用 CPU：先来先服务、短作业优先、时间片轮转。\n';
      const MEMORY = '虚拟内存让每个进程以为自己独占一段连续的地址空间，由页表把它映射到物理内存。\n';
      /** An Obsidian vault: file names are titles, no id of ours. */
      const vault = (files: Record<string, string>) =>
        writeZipArchive(Object.entries(files).map(([path, content]) => ({ path, content })));
      const course = vault({
        'vault/操作系统/进程调度.md': SCHEDULING,
        'vault/操作系统/虚拟内存.md': MEMORY,
      });
      const renameScheduling = async (api: ReturnType<typeof setup>) => {
        const note = (await allNotes()).find((n) => n.title === '进程调度') as NoteDto;
        await api.notes.update({ note_id: note.note_id, title: 'CPU 调度' });
        return note;
      };

      it('skip knows the renamed note by its text: nothing is added and the report names it under both titles', async () => {
        const api = setup();
        await importZip(course);
        const renamed = await renameScheduling(api);
        const { result } = await importZip(course, 'skip');
        expect(result).toMatchObject({ created: 0, updated: 0, duplicates_skipped: 2, skipped_changed: 0 });
        expect((result as ImportResult).notes?.skipped).toEqual(
          expect.arrayContaining([
            { note_id: renamed.note_id, title: '进程调度', existing_title: 'CPU 调度' },
            expect.objectContaining({ title: '虚拟内存' }),
          ]),
        );
        expect((await allNotes()).map((n) => n.title).sort()).toEqual(['CPU 调度', '虚拟内存']);
      });

      it('update puts the archive version (its title) back on the same note, and says what it was called', async () => {
        const api = setup();
        await importZip(course);
        const renamed = await renameScheduling(api);
        const { result } = await importZip(course, 'update');
        expect(result).toMatchObject({ created: 0, updated: 2 });
        expect((result as ImportResult).notes?.updated).toContainEqual({
          note_id: renamed.note_id,
          title: '进程调度',
          existing_title: 'CPU 调度',
        });
        expect((await api.notes.get(renamed.note_id)).title).toBe('进程调度');
        expect((await api.notes.list()).page.total).toBe(2);
      });

      it('a new file is added and named in the report with the id it got', async () => {
        setup();
        await importZip(course);
        const more = vault({
          'vault/操作系统/进程调度.md': SCHEDULING,
          'vault/操作系统/死锁.md':
            '死锁的四个必要条件：互斥、占有并等待、不可抢占、循环等待，破坏其一即可预防。\n',
        });
        const { result } = await importZip(more, 'skip');
        const created = (result as ImportResult).notes?.created ?? [];
        expect(created).toEqual([{ note_id: expect.any(String), title: '死锁' }]);
        expect((await allNotes()).find((n) => n.title === '死锁')?.note_id).toBe(created[0]?.note_id);
      });

      it('short bodies are no key: two different notes saying only "TODO" stay two notes', async () => {
        const api = setup();
        await importZip(vault({ 'vault/inbox/first.md': 'TODO\n' }));
        const first = (await allNotes())[0] as NoteDto;
        await api.notes.update({ note_id: first.note_id, title: 'renamed' });
        expect((await importZip(vault({ 'vault/inbox/second.md': 'TODO\n' }), 'skip')).result).toMatchObject({
          created: 1,
          duplicates_skipped: 0,
        });
        expect((await api.notes.list()).page.total).toBe(2);
      });

      it('the same text in another folder is another note', async () => {
        const api = setup();
        await importZip(course);
        await renameScheduling(api);
        const elsewhere = vault({ 'vault/复习/进程调度.md': SCHEDULING });
        expect((await importZip(elsewhere, 'skip')).result).toMatchObject({
          created: 1,
          duplicates_skipped: 0,
        });
      });

      it('a text two notes share matches neither (conflict): the file is added, nothing is overwritten', async () => {
        const api = setup();
        // Written here, not imported: no file is known for either note, only their text.
        const renamed = await api.notes.create({ title: 'CPU 调度', folder: '操作系统', body: SCHEDULING });
        const copy = await api.notes.create({ title: '调度副本', folder: '操作系统', body: SCHEDULING });
        const { result } = await importZip(course, 'update');
        expect(result).toMatchObject({ created: 2, updated: 0 });
        expect((await api.notes.get(renamed.note_id)).title).toBe('CPU 调度');
        expect((await api.notes.get(copy.note_id)).title).toBe('调度副本');
      });

      it('the file a note was imported from outweighs a text two notes share', async () => {
        const api = setup();
        await importZip(course);
        const renamed = await renameScheduling(api);
        const copy = await api.notes.create({ title: '调度副本', folder: '操作系统', body: SCHEDULING });
        const { result } = await importZip(course, 'update');
        expect(result).toMatchObject({ created: 0, updated: 2 });
        expect((await api.notes.get(renamed.note_id)).title).toBe('进程调度');
        expect((await api.notes.get(copy.note_id)).title).toBe('调度副本');
      });

      it('two files with one text in the archive match no note by text', async () => {
        const api = setup();
        await importZip(course);
        await renameScheduling(api);
        const twice = vault({
          'vault/操作系统/进程调度.md': SCHEDULING,
          'vault/操作系统/进程调度（副本）.md': SCHEDULING,
        });
        // 进程调度.md is the file CPU 调度 was imported from; its copy is not paired by a text two files share.
        expect((await importZip(twice, 'skip')).result).toMatchObject({ created: 1, duplicates_skipped: 1 });
        expect((await api.notes.list()).page.total).toBe(3);
      });

      it('a note the user made under the old title is not taken for the archive note when the renamed one has its text', async () => {
        const api = setup();
        await importZip(course);
        const renamed = await renameScheduling(api);
        const fresh = await api.notes.create({ title: '进程调度', folder: '操作系统', body: '我的新笔记\n' });
        const { result } = await importZip(course, 'update');
        expect(result).toMatchObject({ created: 0, updated: 2 });
        expect((await api.notes.get(fresh.note_id)).body).toBe('我的新笔记\n');
        expect((await api.notes.get(renamed.note_id)).body).toBe(SCHEDULING);
      });

      it('names at most IMPORT_NAMED_NOTES notes of a kind; the counts say how many', async () => {
        setup();
        const { result } = await importZip(zipOf(IMPORT_NAMED_NOTES + 5));
        expect(result).toMatchObject({ created: IMPORT_NAMED_NOTES + 5 });
        expect((result as ImportResult).notes?.created).toHaveLength(IMPORT_NAMED_NOTES);
      });
    });

    it('rejects an unknown duplicate choice with VALIDATION_FAILED before creating a job', async () => {
      const api = setup();
      await expect(
        api.archive.importZip({
          data: zipOf(1),
          file_name: 'a.zip',
          on_duplicate: 'merge' as 'skip',
        }),
      ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
      expect((await api.jobs.list()).page.total).toBe(0);
    });

    it('cancelling an update import puts the overwritten notes back and removes the new ones', async () => {
      const api = setup();
      const first = zipOf(120);
      await importZip(first);
      const before = comparable(await allNotes());
      // Exported, so their ids travel, then edited in the archive: found by id, overwritten.
      const exported = unzipSync(await exportedBytes(api));
      const edited = Object.entries(exported).map(([path, bytes]) => ({
        path,
        content: `${new TextDecoder().decode(bytes)}edited\n`,
      }));
      const job = await api.archive.importZip({
        data: writeZipArchive(edited),
        file_name: 'edited.zip',
        on_duplicate: 'update',
      });
      let cancelled = false;
      let staged: Promise<number> = Promise.resolve(0);
      const seen: EventEnvelope[] = [];
      await api.events.subscribe(job.job_id, 0, (e) => {
        seen.push(e);
        const data = e.data as { current?: number; phase?: string };
        if (!cancelled && e.event === 'Progress' && data.phase === 'importing' && (data.current ?? 0) >= 50) {
          cancelled = true;
          // While it runs, what it overwrote is staged: a closed tab's next start puts it back.
          staged = current.db.table('import_staging').count();
          void staged.then(() => api.jobs.cancel(job.job_id));
        }
      }).closed;
      expect(await staged).toBeGreaterThanOrEqual(50);
      expect(seen.at(-1)?.event).toBe('Cancelled');
      expect(comparable(await allNotes()).map(({ updated_at: _u, ...rest }) => rest)).toEqual(
        before.map(({ updated_at: _u, ...rest }) => rest),
      );
      expect(await current.db.table('import_staging').count()).toBe(0);
    });
  });
  describe('note ids', () => {
    const importInto = async (data: Uint8Array, on_duplicate?: 'skip' | 'update' | 'keep_both') => {
      const job = await current.api.archive.importZip({
        data,
        file_name: 'vault.zip',
        ...(on_duplicate ? { on_duplicate } : {}),
      });
      await finished(job.job_id);
      return current.api.jobs.get(job.job_id);
    };
    const ids = async () => (await allNotes()).map((note) => note.note_id).sort();
    const noteFile = (noteId: string, title: string, body: string) =>
      markdownFileFromNote({ title, folder: '', body, tags: [], extra: { note_id: noteId } }, new Set());

    it('an exported notebook imported elsewhere keeps every note id, so links to them still resolve', async () => {
      const api = setup();
      const a = await api.notes.create({ title: 'A', folder: 'x', body: 'alpha\n', tags: [] });
      const b = await api.notes.create({ title: 'B', folder: '', body: 'beta [[A]]\n', tags: ['t'] });
      const exported = await exportedBytes(api);

      setup();
      expect((await importInto(exported)).result).toMatchObject({ created: 2 });
      expect(await ids()).toEqual([a.note_id, b.note_id].sort());
      expect(await current.api.notes.get(a.note_id)).toMatchObject({
        title: 'A',
        folder: 'x',
        body: 'alpha\n',
      });
    });

    it('keep_both gives the copies new ids and leaves the notes that hold those ids alone', async () => {
      const api = setup();
      const note = await api.notes.create({ title: 'Plan', folder: '', body: 'one\n', tags: [] });
      const exported = await exportedBytes(api);
      expect((await importInto(exported, 'keep_both')).result).toMatchObject({ created: 1 });
      const all = await allNotes();
      expect(all).toHaveLength(2);
      const copy = all.find((n) => n.note_id !== note.note_id);
      expect(copy).toMatchObject({ title: 'Plan', body: 'one\n' });
      expect(copy?.note_id).toMatch(/^note_/);
      expect(await api.notes.get(note.note_id)).toMatchObject({ version: note.version, body: 'one\n' });
    });

    it('an id held by a note in the trash is not reused: the import gets a new id and the trashed note stays', async () => {
      const api = setup();
      const note = await api.notes.create({ title: 'Old', folder: '', body: 'old text\n', tags: [] });
      await api.notes.trash(note.note_id);
      const zip = writeZipArchive([noteFile(note.note_id, 'New', 'new text\n')]);
      expect((await importInto(zip, 'skip')).result).toMatchObject({ created: 1, duplicates_skipped: 0 });
      const [live] = await allNotes();
      expect(live).toMatchObject({ title: 'New', body: 'new text\n' });
      expect(live?.note_id).not.toBe(note.note_id);
      expect(await api.notes.get(note.note_id)).toMatchObject({
        title: 'Old',
        deleted_at: expect.any(String),
      });
    });

    it('two files carrying one id: the first keeps it, the second gets a new one', async () => {
      setup();
      const id = 'note_0123456789abcdef0123456789abcdef';
      const zip = writeZipArchive([
        { path: 'a.md', content: noteFile(id, 'First', 'first\n').content },
        { path: 'b.md', content: noteFile(id, 'Second', 'second\n').content },
      ]);
      expect((await importInto(zip)).result).toMatchObject({ created: 2 });
      expect((await current.api.notes.get(id)).title).toBe('First');
      const second = (await allNotes()).find((n) => n.title === 'Second');
      expect(second?.note_id).not.toBe(id);
      expect(second?.body).toBe('second\n');
    });

    it('a note_id that is not one of ours is not used as a key and does not stay in the text', async () => {
      setup();
      const zip = writeZipArchive([
        { path: 'a.md', content: '---\ntitle: A\nnote_id: ../../etc\n---\nbody\n' },
        { path: 'b.md', content: '---\ntitle: B\nnote_id: 42\n---\nbody b\n' },
      ]);
      expect((await importInto(zip)).result).toMatchObject({ created: 2 });
      const notes = await allNotes();
      expect(notes.map((n) => n.note_id).every((id) => /^note_[0-9a-f]{32}$/.test(id))).toBe(true);
      expect(notes.find((n) => n.title === 'A')?.body).toBe('body\n');
      // Not a string: the user's own field, kept with the note.
      expect(notes.find((n) => n.title === 'B')?.body).toBe('---\nnote_id: 42\n---\nbody b\n');
    });

    it('a cancelled import removes the notes that kept their ids, so importing again keeps them once more', async () => {
      const api = setup();
      for (let i = 0; i < 120; i++)
        await api.notes.create({ title: `N${i}`, folder: '', body: `b${i}\n`, tags: [] });
      const original = await ids();
      const exported = await exportedBytes(api);

      setup();
      const job = await current.api.archive.importZip({ data: exported, file_name: 'vault.zip' });
      const seen = await cancelledWhen(job.job_id, progressPast(50));
      expect(seen.at(-1)?.event).toBe('Cancelled');
      expect((await current.api.notes.list()).page.total).toBe(0);
      expect((await importInto(exported)).result).toMatchObject({ created: 120 });
      expect(await ids()).toEqual(original);
    });
  });
  describe('pins and folders', () => {
    it('pinned notes and folders come back from an export as they were', async () => {
      const api = setup();
      const top = await api.notes.create({ title: 'Top', folder: 'work/plans', body: 'top\n', tags: [] });
      await api.notes.create({ title: 'Low', folder: '', body: 'low\n', tags: [] });
      await api.notes.setPinned({ note_id: top.note_id, pinned: true });
      const exported = await exportedBytes(api);

      setup();
      const job = await current.api.archive.importZip({ data: exported, file_name: 'vault.zip' });
      await finished(job.job_id);
      const notes = await allNotes();
      expect(
        notes
          .map(({ title, folder, pinned }) => ({ title, folder, pinned }))
          .sort((a, b) => a.title.localeCompare(b.title)),
      ).toEqual([
        { title: 'Low', folder: '', pinned: false },
        { title: 'Top', folder: 'work/plans', pinned: true },
      ]);
      // The pinned note leads the list, as it did before the export.
      expect((await current.api.notes.list()).items[0]?.title).toBe('Top');
      expect(notes.find((n) => n.title === 'Top')?.body).toBe('top\n');
    });

    it('update applies the archive pin', async () => {
      const api = setup();
      const note = await api.notes.create({ title: 'Plan', folder: '', body: 'v1\n', tags: [] });
      await api.notes.setPinned({ note_id: note.note_id, pinned: true });
      const pinnedExport = await exportedBytes(api);
      await api.notes.setPinned({ note_id: note.note_id, pinned: false });

      const job = await api.archive.importZip({
        data: pinnedExport,
        file_name: 'v.zip',
        on_duplicate: 'update',
      });
      await finished(job.job_id);
      expect((await api.jobs.get(job.job_id)).result).toMatchObject({ updated: 1 });
      expect((await api.notes.get(note.note_id)).pinned).toBe(true);
    });

    it('a cancelled update import puts every pin back as it was', async () => {
      const api = setup();
      const notes = [];
      for (let i = 0; i < 60; i++)
        notes.push(await api.notes.create({ title: `N${i}`, folder: '', body: `b${i}\n`, tags: [] }));
      for (const n of notes) await api.notes.setPinned({ note_id: n.note_id, pinned: true });
      const pinnedExport = await exportedBytes(api);
      for (const n of notes) await api.notes.setPinned({ note_id: n.note_id, pinned: false });

      const job = await api.archive.importZip({
        data: pinnedExport,
        file_name: 'v.zip',
        on_duplicate: 'update',
      });
      const seen = await cancelledWhen(job.job_id, progressPast(25));
      expect(seen.at(-1)?.event).toBe('Cancelled');
      expect((await allNotes()).filter((n) => n.pinned)).toEqual([]);
    });
  });
  describe('reading the archive in steps', () => {
    /** 5 MB of random letters (about 3 MB deflated), so the read takes several 1 MiB steps. */
    function largeZip(): Uint8Array {
      let state = 7;
      const letters: string[] = [];
      for (let i = 0; i < 5 * 1024 * 1024; i++) {
        state ^= state << 13;
        state ^= state >>> 17;
        state ^= state << 5;
        letters.push(String.fromCharCode(97 + ((state >>> 0) % 26)));
      }
      return writeZipArchive([
        { path: 'vault/large.md', content: letters.join('') },
        { path: 'vault/small.md', content: '# Small\n' },
      ]);
    }
    type Progress = { phase: string; current: number; total: number | null; message: string | null };

    it('reports reading progress in archive bytes before the notes are written', async () => {
      const api = setup();
      const zip = largeZip();
      const job = await api.archive.importZip({ data: zip, file_name: 'large.zip' });
      const progress = (await finished(job.job_id))
        .filter((e) => e.event === 'Progress')
        .map((e) => e.data as Progress);
      const reading = progress.filter((p) => p.phase === 'reading' && p.total !== null);
      expect(reading.length).toBeGreaterThanOrEqual(3);
      const total = reading[0]!.total!;
      expect(total).toBeGreaterThan(2 * 1024 * 1024);
      expect(total).toBeLessThan(zip.byteLength);
      expect(reading.at(-1)).toMatchObject({ current: total, total, message: 'large.zip' });
      expect(reading.map((p) => p.current)).toEqual([...reading.map((p) => p.current)].sort((a, b) => a - b));
      // Every reading step comes before the first note is written.
      const lastReading = progress.findLastIndex((p) => p.phase === 'reading');
      expect(progress.findIndex((p) => p.phase === 'importing')).toBeGreaterThan(lastReading);
      expect((await api.jobs.get(job.job_id)).result).toMatchObject({ created: 2 });
    });

    it('a cancel during the read stops it at the next step and leaves no note and no archive', async () => {
      const api = setup();
      const job = await api.archive.importZip({ data: largeZip(), file_name: 'large.zip' });
      const seen = await cancelledWhen(
        job.job_id,
        (e) =>
          e.event === 'Progress' &&
          (e.data as Progress).phase === 'reading' &&
          (e.data as Progress).current > 0,
      );
      expect(seen.at(-1)?.event).toBe('Cancelled');
      const phases = seen.filter((e) => e.event === 'Progress').map((e) => (e.data as Progress).phase);
      expect(phases).not.toContain('importing');
      const reads = seen.filter((e) => e.event === 'Progress' && (e.data as Progress).current > 0);
      expect(reads.at(-1)?.data).toMatchObject({ phase: 'reading' });
      expect((reads.at(-1)?.data as Progress).current).toBeLessThan((reads.at(-1)?.data as Progress).total!);
      expect((await api.jobs.get(job.job_id)).status).toBe('cancelled');
      expect(await current.db.notes.count()).toBe(0);
      expect(await current.db.blocks.count()).toBe(0);
      expect(await current.db.attachments.count()).toBe(0);
    });

    it('a note whose data is damaged fails the job with IMPORT_ARCHIVE_INVALID naming it, writing nothing', async () => {
      const api = setup();
      const good = deflateSync(strToU8('# fine\n'.repeat(50_000)));
      const broken = good.slice();
      broken.fill(0xff, 100, 400);
      const zip = rawZip([
        { name: 'v/ok.md', data: strToU8('ok') },
        { name: 'v/broken.md', data: broken, method: 8, declared_size: 7 * 50_000 },
      ]);
      const job = await api.archive.importZip({ data: zip, file_name: 'broken.zip' });
      const events = await finished(job.job_id);
      expect(events.at(-1)).toMatchObject({
        event: 'Failed',
        data: {
          error: { code: 'IMPORT_ARCHIVE_INVALID', details: { reason: 'invalid_zip', entry: 'v/broken.md' } },
        },
      });
      expect((events.at(-1)?.data as { error: { message: string } }).error.message).toMatch(/v\/broken\.md/);
      expect(await current.db.notes.count()).toBe(0);
      expect(await current.db.attachments.count()).toBe(0);
    });
  });
});

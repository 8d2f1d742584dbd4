import { strToU8, unzipSync, zipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventEnvelope, ImportResult, NoteDto } from '../contracts';
import { testCore } from './test-core';

/** Pictures through a vault export and import: a note's pictures go with it, both ways. */

let cores: ReturnType<typeof testCore>[] = [];
afterEach(async () => {
  for (const core of cores) {
    await core.idle();
    await core.close();
  }
  cores = [];
});
function setup() {
  const core = testCore();
  cores.push(core);
  return core;
}

const png = (seed: number) => new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, seed, 0, seed]);
const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);

async function finished(core: ReturnType<typeof setup>, jobId: string): Promise<EventEnvelope[]> {
  const seen: EventEnvelope[] = [];
  await core.api.events.subscribe(jobId, 0, (e) => seen.push(e)).closed;
  return seen;
}

async function importInto(
  core: ReturnType<typeof setup>,
  data: Uint8Array | Blob,
  on_duplicate?: 'skip' | 'update' | 'keep_both',
): Promise<ImportResult> {
  const job = await core.api.archive.importZip({
    data,
    file_name: 'vault.zip',
    ...(on_duplicate ? { on_duplicate } : {}),
  });
  const events = await finished(core, job.job_id);
  expect(events.at(-1)?.event, JSON.stringify(events.at(-1)?.data)).toBe('Completed');
  return (await core.api.jobs.get(job.job_id)).result as ImportResult;
}

async function notesOf(core: ReturnType<typeof setup>): Promise<NoteDto[]> {
  const page = await core.api.notes.list({ limit: 200 });
  const notes = await Promise.all(page.items.map((item) => core.api.notes.get(item.note_id)));
  return notes.sort((a, b) => a.title.localeCompare(b.title));
}

const linkedIds = (body: string) => [...body.matchAll(/\(attachment:([\w-]+)\)/g)].map((match) => match[1]!);
const bytesOfPicture = async (core: ReturnType<typeof setup>, id: string) => [
  ...new Uint8Array(await (await core.api.noteImages.blob(id)).arrayBuffer()),
];

describe('a vault export writes the pictures its notes link', () => {
  it('as files beside the notes, named as they came, linked by relative paths, each once', async () => {
    const core = setup();
    const a = await core.api.noteImages.attach({ name: 'a.png', data: png(1) });
    const b = await core.api.noteImages.attach({ name: 'b.jpg', data: jpeg });
    // Another picture of the same name (as macOS and Windows see it) gets a number.
    const c = await core.api.noteImages.attach({ name: 'A.png', data: png(7) });
    await core.api.notes.create({
      title: 'Top',
      folder: '',
      body: `![图 a](attachment:${a.attachment_id})\n![gone](attachment:att_gone)\n![c](attachment:${c.attachment_id})\n`,
      tags: [],
    });
    await core.api.notes.create({
      title: 'Deep',
      folder: '课程/week 1',
      body: `Text ![b](attachment:${b.attachment_id}) and ![a again](attachment:${a.attachment_id})`,
      tags: [],
    });
    const exported = await core.api.archive.exportAll();
    const files = unzipSync(new Uint8Array(await exported.data.arrayBuffer()));
    const text = (path: string) => new TextDecoder().decode(files[path]);
    expect(Object.keys(files).sort()).toEqual(
      [
        'NotesAgent/Top.md',
        'NotesAgent/课程/week 1/Deep.md',
        'NotesAgent/attachments/a.png',
        'NotesAgent/attachments/A (2).png',
        'NotesAgent/attachments/b.jpg',
      ].sort(),
    );
    expect([...files['NotesAgent/attachments/a.png']!]).toEqual([...png(1)]);
    expect([...files['NotesAgent/attachments/A (2).png']!]).toEqual([...png(7)]);
    expect(text('NotesAgent/Top.md')).toContain(
      '![图 a](attachments/a.png)\n![gone](attachment:att_gone)\n![c](attachments/A%20%282%29.png)\n',
    );
    expect(text('NotesAgent/课程/week 1/Deep.md')).toContain(
      'Text ![b](../../attachments/b.jpg) and ![a again](../../attachments/a.png)',
    );
    // The notebook's own notes are untouched by the export.
    expect((await notesOf(core)).map((note) => linkedIds(note.body))).toEqual([
      [b.attachment_id, a.attachment_id],
      [a.attachment_id, 'att_gone', c.attachment_id],
    ]);
  });

  it('imports back into another notebook with its pictures, and is the same notes again in this one', async () => {
    const first = setup();
    const picture = await first.api.noteImages.attach({ name: 'shot.png', data: png(2) });
    await first.api.notes.create({
      title: '截图',
      folder: 'work',
      body: `见下图\n\n![shot](attachment:${picture.attachment_id})\n`,
      tags: [],
    });
    await first.api.notes.create({
      title: 'Also',
      folder: '',
      body: `![same](attachment:${picture.attachment_id})`,
      tags: [],
    });
    const exported = await first.api.archive.exportAll();

    const second = setup();
    const result = await importInto(second, exported.data);
    expect(result).toMatchObject({ created: 2, pictures: 1, left_out: 0 });
    expect(result.warnings).toEqual([]);
    const [also, shot] = await notesOf(second);
    const [id] = linkedIds(shot!.body);
    expect(shot!.body).toBe(`见下图\n\n![shot](attachment:${id})\n`);
    expect(also!.body).toBe(`![same](attachment:${id})`);
    expect(await bytesOfPicture(second, id!)).toEqual([...png(2)]);
    expect(await second.db.attachments.count()).toBe(1);

    // Into the notebook it came from: the same picture is found stored, so the notes are duplicates.
    const again = await importInto(first, exported.data, 'skip');
    expect(again).toMatchObject({ created: 0, duplicates_skipped: 2, skipped_changed: 0, pictures: 0 });
    expect(await first.db.attachments.count()).toBe(1);
  });
});

describe('an import stores the pictures its notes link', () => {
  const vault = () =>
    zipSync({
      'vault/notes/a.md': strToU8(
        [
          '![[diagram.png]] ![[diagram.png|300]] ![[diagram.png|系统架构]]',
          '![photo](../assets/photo%20one.jpg)',
          '![web](https://example.com/x.png)',
          '`![[code.png]]`',
          '![fake](../assets/fake.png)',
          '![missing](nowhere.png)',
        ].join('\n'),
      ),
      'vault/assets/diagram.png': png(3),
      'vault/assets/photo one.jpg': jpeg,
      'vault/assets/code.png': png(4),
      'vault/assets/fake.png': strToU8('not a picture at all'),
      'vault/assets/unlinked.png': png(5),
    });

  it("from Obsidian's and Markdown's links; what is not linked, or is no picture, stays left out", async () => {
    const core = setup();
    const result = await importInto(core, vault());
    const [note] = await notesOf(core);
    const [diagram, , , photo] = linkedIds(note!.body);
    expect(note!.body).toBe(
      [
        // The size Obsidian wrote (`|300`) stays; a caption becomes the alt text.
        `![diagram](attachment:${diagram}) ![diagram|300](attachment:${diagram}) ![系统架构](attachment:${diagram})`,
        `![photo](attachment:${photo})`,
        '![web](https://example.com/x.png)',
        '`![[code.png]]`',
        '![fake](../assets/fake.png)',
        '![missing](nowhere.png)',
      ].join('\n'),
    );
    expect(await bytesOfPicture(core, diagram!)).toEqual([...png(3)]);
    expect(await bytesOfPicture(core, photo!)).toEqual([...jpeg]);
    expect(result).toMatchObject({ created: 1, pictures: 2, left_out: 3 });
    expect(result.warnings.map((warning) => [warning.path, warning.reason])).toEqual([
      ['vault/assets/code.png', 'not_markdown'],
      ['vault/assets/fake.png', 'not_markdown'],
      ['vault/assets/unlinked.png', 'not_markdown'],
    ]);
    expect(await core.db.attachments.count()).toBe(2);
  });

  it('from a picked folder, reading only the pictures a note links', async () => {
    const core = setup();
    /** A picked file the import must not read: nothing links it. */
    class Unread extends Blob {
      override arrayBuffer(): Promise<ArrayBuffer> {
        throw new Error('an unlinked picture was read');
      }
    }
    const job = await core.api.archive.importFiles({
      files: [
        { path: 'vault/课程/第一讲.md', content: '板书：\n\n![[板书.png]]\n' },
        { path: 'vault/assets/板书.png', data: new Blob([png(8)]) },
        { path: 'vault/assets/unlinked.png', data: new Unread([png(9)]) },
      ],
    });
    const events = await finished(core, job.job_id);
    expect(events.at(-1)?.event).toBe('Completed');
    const result = (await core.api.jobs.get(job.job_id)).result as ImportResult;
    expect(result).toMatchObject({ created: 1, pictures: 1, left_out: 0 });
    const [note] = await notesOf(core);
    const [id] = linkedIds(note!.body);
    expect(note!.body).toBe(`板书：\n\n![板书](attachment:${id})\n`);
    expect(await bytesOfPicture(core, id!)).toEqual([...png(8)]);
    await expect(
      core.api.archive.importFiles({ files: [{ path: 'vault/a.png', data: new Blob([png(1)]) }] }),
    ).rejects.toMatchObject({ code: 'IMPORT_FILE_INVALID' });
    await expect(
      core.api.archive.importFiles({ files: [{ path: 'vault/a.md', data: 'text' as unknown as Blob }] }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('leaves no picture behind when its note is skipped as a duplicate', async () => {
    const core = setup();
    await core.api.notes.create({ title: 'a', folder: 'notes', body: 'edited here', tags: [] });
    const result = await importInto(
      core,
      zipSync({ 'vault/notes/a.md': strToU8('![[p.png]]'), 'vault/p.png': png(6) }),
      'skip',
    );
    expect(result).toMatchObject({ created: 0, duplicates_skipped: 1, skipped_changed: 1, pictures: 0 });
    expect(await core.db.attachments.count()).toBe(0);
  });

  it('keeps a picture already stored when a cancelled import linked it, and removes the ones it stored', async () => {
    const core = setup();
    const mine = await core.api.noteImages.attach({ name: 'mine.png', data: png(7) });
    const files: Record<string, Uint8Array> = { 'vault/p/mine.png': png(7) };
    for (let i = 0; i < 300; i++) {
      files[`vault/n${i}.md`] = strToU8(`![](p/pic${i % 20}.png) ![](p/mine.png)`);
    }
    for (let i = 0; i < 20; i++) files[`vault/p/pic${i}.png`] = png(10 + i);
    const job = await core.api.archive.importZip({ data: zipSync(files), file_name: 'vault.zip' });
    let cancelled = false;
    const seen: EventEnvelope[] = [];
    await core.api.events.subscribe(job.job_id, 0, (e) => {
      seen.push(e);
      const phase = (e.data as { phase?: string }).phase;
      if (!cancelled && e.event === 'Progress' && phase === 'importing') {
        cancelled = true;
        void core.api.jobs.cancel(job.job_id);
      }
    }).closed;
    expect(seen.some((e) => (e.data as { phase?: string }).phase === 'pictures')).toBe(true);
    expect(seen.at(-1)?.event).toBe('Cancelled');
    expect((await core.api.notes.list()).page.total).toBe(0);
    expect((await core.db.attachments.toArray()).map((row) => row.attachment_id)).toEqual([
      mine.attachment_id,
    ]);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import type { NotesAgentDatabase } from './database';
import type { PagedNote } from './note-pages';
import { NotesRepository } from './notes-repository';
import { freshDatabase } from './test-database';

let db: NotesAgentDatabase;
afterEach(async () => db?.delete());

function repository() {
  db = freshDatabase();
  let t = Date.UTC(2026, 0, 1);
  return new NotesRepository(db, { now: () => new Date((t += 1000)).toISOString() });
}

/** Runs a page loop, keeping each page's ids and body sizes. */
async function pagesOf(
  notes: NotesRepository,
  ids: readonly string[],
  options: Parameters<NotesRepository['forEachNotePage']>[2] = {},
): Promise<PagedNote[][]> {
  const pages: PagedNote[][] = [];
  await notes.forEachNotePage(ids, (page) => void pages.push(page), options);
  return pages;
}

describe('NotesRepository page loops', () => {
  it('hands notes in pages bounded by rows and body characters; a longer note comes alone', async () => {
    const notes = repository();
    const made = [];
    for (let i = 0; i < 7; i++)
      made.push(await notes.create({ title: `n${i}`, folder: '', body: 'x'.repeat(100), tags: [] }));
    const big = await notes.create({ title: 'big', folder: '', body: 'y'.repeat(1000), tags: [] });
    const ids = [...made.map((note) => note.note_id), big.note_id];
    const pages = await pagesOf(notes, ids, { pageChars: 300, pageRows: 2 });
    expect(pages.map((page) => page.map((note) => note.title))).toEqual([
      ['n0', 'n1'],
      ['n2', 'n3'],
      ['n4', 'n5'],
      ['n6'],
      ['big'],
    ]);
    for (const page of pages) {
      expect(page.length).toBeLessThanOrEqual(2);
      const chars = page.reduce((sum, note) => sum + note.body.length, 0);
      expect(page.length === 1 || chars <= 300).toBe(true);
    }
    expect(pages.flat().every((note) => note.body_complete)).toBe(true);
    expect(pages.at(-1)?.[0]?.body).toBe('y'.repeat(1000));
  });

  it('leaves missing notes out, keeps the order asked, and brings trashed ones marked', async () => {
    const notes = repository();
    const a = await notes.create({ title: 'a', folder: '', body: 'A', tags: [] });
    const b = await notes.create({ title: 'b', folder: '', body: 'B', tags: [] });
    await notes.setTrashed(a.note_id, true);
    const pages = await pagesOf(notes, [b.note_id, 'note_missing', a.note_id]);
    expect(pages.flat().map((note) => [note.title, note.deleted_at === null])).toEqual([
      ['b', true],
      ['a', false],
    ]);
    expect(await pagesOf(notes, [])).toEqual([]);
  });

  it('reads a body over the bound as its first blocks only, at their lines', async () => {
    const notes = repository();
    const paragraphs = Array.from(
      { length: 50 },
      (_, i) => `Paragraph ${i} ${'z'.repeat(80)}${i === 0 ? ' [[Start]]' : ''}${i === 49 ? ' [[End]]' : ''}`,
    );
    const long = await notes.create({ title: 'long', folder: '', body: paragraphs.join('\n\n'), tags: [] });
    const short = await notes.create({ title: 'short', folder: '', body: 'tiny [[End]]', tags: [] });
    const [partial, whole] = await notes.readPaged([long.note_id, short.note_id], { maxBodyChars: 300 });
    expect(partial).toMatchObject({ body_complete: false, body_length: long.body.length, title: 'long' });
    // Up to the bound and the block that crosses it: four paragraphs of 96+ characters.
    expect(partial?.body).toBe(paragraphs.slice(0, 4).join('\n\n'));
    expect(whole).toMatchObject({ body_complete: true, body: 'tiny [[End]]' });
    const pages = await pagesOf(notes, [long.note_id, short.note_id], { maxBodyChars: 300, pageChars: 600 });
    // Counted by the part read, both fit one page.
    expect(pages).toHaveLength(1);
  });

  it('stops between pages when its signal aborts', async () => {
    const notes = repository();
    const ids = [];
    for (let i = 0; i < 5; i++)
      ids.push((await notes.create({ title: `n${i}`, folder: '', body: 'b', tags: [] })).note_id);
    const controller = new AbortController();
    const seen: string[] = [];
    const run = notes.forEachNotePage(
      ids,
      (page) => {
        seen.push(...page.map((note) => note.title));
        controller.abort();
      },
      { pageRows: 2, signal: controller.signal },
    );
    await expect(run).rejects.toThrow();
    expect(seen).toEqual(['n0', 'n1']);
  });

  it('gives a note an older version wrote without a meta row its meta, reading it once', async () => {
    const notes = repository();
    const made = await notes.create({ title: 'old', folder: '', body: 'legacy body', tags: [] });
    await db.note_meta.delete(made.note_id);
    const summaries: string[] = [];
    await notes.forEachSummaryPage([made.note_id, 'note_missing'], (page) => {
      summaries.push(...page.map((summary) => `${summary.title}:${summary.body_length}`));
    });
    expect(summaries).toEqual(['old:11']);
    expect(await db.note_meta.get(made.note_id)).toMatchObject({ body_length: 11 });
  });

  it('lists ids least recently changed first, and by creation with ties by id', async () => {
    const notes = repository();
    const first = await notes.create({
      title: '1',
      folder: '',
      body: '',
      tags: [],
      created_at: '2026-02-01T00:00:00.000Z',
    });
    const tieB = await notes.create({
      title: 'b',
      folder: '',
      body: '',
      tags: [],
      created_at: '2026-01-01T00:00:00.000Z',
      note_id: 'note_b',
    });
    const tieA = await notes.create({
      title: 'a',
      folder: '',
      body: '',
      tags: [],
      created_at: '2026-01-01T00:00:00.000Z',
      note_id: 'note_a',
    });
    await notes.update(first.note_id, { body: 'changed' });
    expect(await notes.noteIdsByCreation({ trashed: false })).toEqual([
      tieA.note_id,
      tieB.note_id,
      first.note_id,
    ]);
    expect((await notes.noteIds({ trashed: false })).at(-1)).toBe(first.note_id);
    await notes.setTrashed(tieA.note_id, true);
    expect(await notes.noteIds({ trashed: true })).toEqual([tieA.note_id]);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import type { NotesAgentDatabase } from './database';
import { NotesRepository } from './notes-repository';
import { freshDatabase } from './test-database';

let db: NotesAgentDatabase;
afterEach(async () => db?.delete());

function repository() {
  db = freshDatabase();
  let t = Date.UTC(2026, 0, 1);
  return new NotesRepository(db, { now: () => new Date((t += 1000)).toISOString() });
}

describe('NotesRepository', () => {
  it('stores a note with its blocks and reads it back', async () => {
    const notes = repository();
    const note = await notes.create({
      title: '进程调度',
      folder: '课程/操作系统',
      body: '# 调度\n\n时间片轮转。\n\n- FIFO\n- RR\n',
      tags: ['os'],
    });
    expect(await notes.get(note.note_id)).toEqual(note);
    expect(note).toMatchObject({ version: 1, deleted_at: null });
    const blocks = await notes.blocks(note.note_id);
    expect(blocks.map((b) => b.type)).toEqual(['heading', 'paragraph', 'list']);
    expect(blocks.map((b) => b.position)).toEqual([0, 1, 2]);
  });

  it('keeps block ids of unchanged blocks across edits so citations survive', async () => {
    const notes = repository();
    const note = await notes.create({
      title: 't',
      folder: '',
      body: '# A\n\nFirst paragraph.\n\nSecond paragraph.\n',
      tags: [],
    });
    const before = await notes.blocks(note.note_id);
    await notes.update(note.note_id, {
      body: 'Intro.\n\n# A\n\nFirst paragraph.\n\nSecond paragraph, edited.\n',
    });
    const after = await notes.blocks(note.note_id);
    const idOf = (blocks: typeof before, text: string) =>
      blocks.find((b) => b.text.startsWith(text))?.block_id;
    expect(idOf(after, '# A')).toBe(idOf(before, '# A'));
    expect(idOf(after, 'First')).toBe(idOf(before, 'First'));
    expect(after).toHaveLength(4);
    expect(new Set(after.map((b) => b.block_id)).size).toBe(4);
    // Deleted blocks leave the table.
    await notes.update(note.note_id, { body: '# A\n' });
    expect((await notes.blocks(note.note_id)).map((b) => b.block_id)).toEqual([idOf(before, '# A')]);
    expect(await db.blocks.where('note_id').equals(note.note_id).count()).toBe(1);
  });

  it('bumps the version and lets a check veto the write atomically', async () => {
    const notes = repository();
    const note = await notes.create({ title: 'a', folder: '', body: 'x', tags: [] });
    const updated = await notes.update(note.note_id, { title: 'b' });
    expect(updated).toMatchObject({ title: 'b', body: 'x', version: 2 });
    expect(updated!.updated_at > note.updated_at).toBe(true);
    await expect(
      notes.update(note.note_id, { body: 'lost' }, () => {
        throw new Error('veto');
      }),
    ).rejects.toThrow('veto');
    expect((await notes.get(note.note_id))?.body).toBe('x');
    expect(await notes.update('note_missing', { title: 'x' })).toBeUndefined();
  });

  it('soft-deletes to the trash and restores', async () => {
    const notes = repository();
    const note = await notes.create({ title: 'gone', folder: 'f', body: '', tags: [] });
    const trashed = await notes.setTrashed(note.note_id, true);
    expect(trashed?.deleted_at).not.toBeNull();
    expect((await notes.list({ trashed: false, recursive: true, limit: 50, offset: 0 })).total).toBe(0);
    expect(
      (await notes.list({ trashed: true, recursive: true, limit: 50, offset: 0 })).items[0]?.note_id,
    ).toBe(note.note_id);
    expect(await notes.folders()).toEqual([]);
    const restored = await notes.setTrashed(note.note_id, false);
    expect(restored?.deleted_at).toBeNull();
    expect(await notes.purge(note.note_id)).toBe(true);
    expect(await notes.get(note.note_id)).toBeUndefined();
    expect(await db.blocks.count()).toBe(0);
    expect(await notes.purge(note.note_id)).toBe(false);
  });

  it('filters by folder (recursive or not), tag and title, newest first, with counts', async () => {
    const notes = repository();
    await notes.create({ title: 'Linux 内核', folder: '课程/操作系统', body: '', tags: ['os', 'linux'] });
    await notes.create({ title: '调度算法', folder: '课程/操作系统/调度', body: '', tags: ['os'] });
    await notes.create({ title: 'Grocery list', folder: '', body: '', tags: ['home'] });
    const list = (q: Partial<Parameters<NotesRepository['list']>[0]>) =>
      notes
        .list({ trashed: false, recursive: true, limit: 50, offset: 0, ...q })
        .then((r) => r.items.map((n) => n.title));
    expect(await list({})).toEqual(['Grocery list', '调度算法', 'Linux 内核']);
    expect(await list({ folder: '课程/操作系统' })).toEqual(['调度算法', 'Linux 内核']);
    expect(await list({ folder: '课程/操作系统', recursive: false })).toEqual(['Linux 内核']);
    expect(await list({ folder: '', recursive: false })).toEqual(['Grocery list']);
    expect(await list({ tag: 'os' })).toEqual(['调度算法', 'Linux 内核']);
    expect(await list({ title_query: 'linux' })).toEqual(['Linux 内核']);
    expect(await list({ limit: 1, offset: 1 })).toEqual(['调度算法']);
    expect(await notes.folders()).toEqual([
      { path: '课程', note_count: 2 },
      { path: '课程/操作系统', note_count: 2 },
      { path: '课程/操作系统/调度', note_count: 1 },
    ]);
    expect(await notes.tags()).toEqual([
      { tag: 'os', note_count: 2 },
      { tag: 'home', note_count: 1 },
      { tag: 'linux', note_count: 1 },
    ]);
    // Trashed notes leave the counts; a folder or tag held only by them leaves the lists.
    const gone = await notes.create({ title: 'Old', folder: '课程/旧', body: '', tags: ['os', 'old'] });
    const kept = await notes.create({ title: 'Kept', folder: '课程/操作系统', body: '', tags: ['os'] });
    await notes.setTrashed(gone.note_id, true);
    await notes.setTrashed(kept.note_id, true);
    expect(await notes.folders()).toEqual([
      { path: '课程', note_count: 2 },
      { path: '课程/操作系统', note_count: 2 },
      { path: '课程/操作系统/调度', note_count: 1 },
    ]);
    expect((await notes.tags()).map((tag) => [tag.tag, tag.note_count])).toEqual([
      ['os', 2],
      ['home', 1],
      ['linux', 1],
    ]);
  });

  it('creates a batch in one transaction: a failure leaves nothing behind', async () => {
    const notes = repository();
    const bad = { title: 'x', folder: '', body: 'y', tags: [] as string[], created_at: undefined };
    // A tags value IndexedDB cannot clone makes the second insert fail inside the transaction.
    const poisoned = { ...bad, tags: [(() => undefined) as unknown as string] };
    await expect(notes.createMany([bad, poisoned])).rejects.toBeTruthy();
    expect(await db.notes.count()).toBe(0);
    expect(await db.blocks.count()).toBe(0);
  });
});

describe('NotesRepository: inline #tags', () => {
  const list = (notes: NotesRepository, tag: string) =>
    notes
      .list({ trashed: false, recursive: true, limit: 50, offset: 0, tag })
      .then((result) => result.items.map((item) => item.title));

  it('counts and filters by a note’s own tags and its inline tags, never rewriting either', async () => {
    const notes = repository();
    const a = await notes.create({
      title: 'A',
      folder: '',
      body: 'Some text #project/alpha and #读书笔记\n\n`#code` #OS',
      tags: ['os'],
    });
    await notes.create({ title: 'B', folder: '', body: '# Heading\n\nmore #读书笔记', tags: [] });
    expect(await notes.tags()).toEqual([
      { tag: '读书笔记', note_count: 2 },
      { tag: 'os', note_count: 1 },
      { tag: 'project/alpha', note_count: 1 },
    ]);
    expect(await list(notes, '读书笔记')).toEqual(['B', 'A']);
    expect(await list(notes, 'project/alpha')).toEqual(['A']);
    expect(await notes.tagsOf(a.note_id)).toEqual(['os', 'project/alpha', '读书笔记']);
    const stored = await notes.get(a.note_id);
    expect(stored?.tags).toEqual(['os']);
    expect(stored?.body).toBe('Some text #project/alpha and #读书笔记\n\n`#code` #OS');
    // The list's rows: the note's own tags (what the tag field edits) and, to show, all of them;
    // the search indexer gets all.
    const [summary] = (await notes.list({ trashed: false, recursive: true, limit: 1, offset: 1 })).items;
    expect(summary?.tags).toEqual(['os']);
    expect(summary?.all_tags).toEqual(['os', 'project/alpha', '读书笔记']);
    expect(summary).not.toHaveProperty('inline_tags');
    expect((await notes.indexSources([a.note_id]))[0]?.note.tags).toEqual([
      'os',
      'project/alpha',
      '读书笔记',
    ]);
  });

  it('counts and filters tags that differ only in case as one tag, in any spelling', async () => {
    const notes = repository();
    const inline = await notes.create({ title: 'Inline', folder: '', body: 'Plan #Project', tags: [] });
    await notes.create({ title: 'Own', folder: '', body: 'no tags here', tags: ['project'] });
    await notes.create({ title: 'Nested', folder: '', body: 'see #Area/Work', tags: ['area/WORK'] });
    await notes.create({ title: 'Other', folder: '', body: 'and #area/work and #project', tags: ['读书'] });
    await notes
      .create({ title: 'Gone', folder: '', body: '#project', tags: [] })
      .then((gone) => notes.setTrashed(gone.note_id, true));
    // Shown as most live notes spell it; a tie goes to the first in code-unit order.
    expect(await notes.tags()).toEqual([
      { tag: 'project', note_count: 3 },
      { tag: 'area/WORK', note_count: 2 },
      { tag: '读书', note_count: 1 },
    ]);
    for (const spelling of ['project', 'PROJECT', 'Project'])
      expect(await list(notes, spelling)).toEqual(['Other', 'Own', 'Inline']);
    expect(await list(notes, 'AREA/WORK')).toEqual(['Other', 'Nested']);
    // Each note keeps its own spelling: only comparisons fold case.
    expect(await notes.tagsOf(inline.note_id)).toEqual(['Project']);
    expect((await notes.get(inline.note_id))?.body).toBe('Plan #Project');
  });

  it('follows edits of the body and the tags, and keeps inline tags through pins, moves and the trash', async () => {
    const notes = repository();
    const a = await notes.create({ title: 'A', folder: 'f', body: 'text #alpha #beta', tags: [] });
    await notes.update(a.note_id, { body: 'text #beta' });
    expect((await notes.tags()).map((tag) => tag.tag)).toEqual(['beta']);
    expect(await list(notes, 'alpha')).toEqual([]);
    await notes.update(a.note_id, { tags: ['gamma'] });
    expect(await notes.tagsOf(a.note_id)).toEqual(['gamma', 'beta']);
    await notes.setPinned(a.note_id, true);
    expect(await renameFolderAndRead(notes, a.note_id)).toEqual(['gamma', 'beta']);
    await notes.setTrashed(a.note_id, true);
    expect(await notes.tags()).toEqual([]);
    await notes.setTrashed(a.note_id, false);
    expect(await list(notes, 'beta')).toEqual(['A']);
  });
});

async function renameFolderAndRead(notes: NotesRepository, noteId: string): Promise<string[] | undefined> {
  await notes.renameFolder('f', 'g');
  return notes.tagsOf(noteId);
}

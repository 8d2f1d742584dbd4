import { afterEach, describe, expect, it, vi } from 'vitest';
import Dexie, { type DBCore } from 'dexie';
import type { NotesAgentDatabase } from './database';
import { AGENT_TABLES } from './agent-stores';
import { AttachmentRepository } from './attachment-repository';
import { IMPORT_STAGING_TABLE } from './import-staging-repository';
import { freshDatabase } from './test-database';
import { createCoreApi } from '../services/core-api';
import { UNUSED_PICTURE_GRACE_MS, UnusedPictures } from './unused-pictures';

const NOW = Date.parse('2026-12-05T12:00:00.000Z');
const TWO_DAYS = 2 * 24 * 60 * 60 * 1000;

const opened: Array<{ db: NotesAgentDatabase; dispose: () => void; idle: () => Promise<void> }> = [];

afterEach(async () => {
  for (const core of opened.splice(0)) {
    await core.idle().catch(() => undefined);
    core.dispose();
    await core.db.delete();
  }
});

/** A notebook whose pictures were stored `age` ms before NOW (the sweep's clock). */
function notebook() {
  const db = freshDatabase();
  const cursorHooks = new Map<string, () => void>();
  // Registered before the core opens the database: Dexie takes middleware only then.
  db.use({
    stack: 'dbcore',
    name: 'cursor-hooks',
    create: (down: DBCore): DBCore => ({
      ...down,
      table: (name) => {
        const table = down.table(name);
        return {
          ...table,
          openCursor: (request) => {
            cursorHooks.get(name)?.();
            return table.openCursor(request);
          },
        };
      },
    }),
  });
  const core = { ...createCoreApi(db, { indexDebounceMs: 1 }), db };
  opened.push(core);
  let storedAt = NOW - TWO_DAYS;
  const attachments = new AttachmentRepository(db, () => storedAt);
  let now = NOW;
  const sweep = new UnusedPictures(db, () => now);
  let serial = 0;
  const picture = async (mime_type = 'image/png') => {
    serial += 1;
    const bytes = new Uint8Array(100 + serial).fill(serial);
    return (
      await attachments.putOnce(new Blob([bytes], { type: mime_type }), {
        name: `p${serial}.png`,
        sha256: `h${serial}`,
      })
    ).attachment;
  };
  return {
    ...core,
    attachments,
    sweep,
    picture,
    link: (id: string) => `![图](attachment:${id})`,
    storeAt: (at: number) => void (storedAt = at),
    setNow: (at: number) => void (now = at),
    /** Runs `hook` each time a cursor opens on `table`. */
    onCursor: (table: string, hook: () => void) => void cursorHooks.set(table, hook),
    stored: async (id: string) => (await db.attachments.get(id)) !== undefined,
  };
}

describe('UnusedPictures', () => {
  it('is nothing for a notebook without pictures, and deletes nothing', async () => {
    const { sweep, api } = notebook();
    await api.notes.create({ title: 'text only', body: 'no pictures here' });
    expect(await sweep.find()).toEqual({ count: 0, bytes: 0 });
    expect(await sweep.delete()).toEqual({ count: 0, bytes: 0 });
  });

  it('finds and deletes only the pictures no note links, through the core API too', async () => {
    const { api, db, picture, link, stored } = notebook();
    const used = await picture();
    const unused = await picture();
    await api.notes.create({ title: 'lecture', body: `板书\n\n${link(used.attachment_id)}\n` });
    // The core's own clock is today: pictures stored two days ago are past the grace period.
    expect(await api.storage.unusedPictures()).toEqual({ count: 1, bytes: unused.size });
    expect(await api.storage.deleteUnusedPictures()).toEqual({ count: 1, bytes: unused.size });
    expect(await stored(unused.attachment_id)).toBe(false);
    expect(await stored(used.attachment_id)).toBe(true);
    expect(await api.storage.unusedPictures()).toEqual({ count: 0, bytes: 0 });
    expect((await api.storage.usage()).attachments).toEqual({ count: 1, bytes: used.size });
    expect(await db.table('attachment_reuses').count()).toBe(0);
  });

  it('keeps a picture that the trash, a note version, a draft, an import being staged or a chat message uses', async () => {
    const { api, db, sweep, picture, link } = notebook();
    const inTrash = await picture();
    const inHistory = await picture();
    const inDraft = await picture();
    const inStaging = await picture();
    const inChat = await picture();
    const unused = await picture();
    const trashed = await api.notes.create({ title: 'old', body: link(inTrash.attachment_id) });
    await api.notes.trash(trashed.note_id);
    const edited = await api.notes.create({ title: 'edited', body: link(inHistory.attachment_id) });
    await api.notes.update({
      note_id: edited.note_id,
      body: 'the picture was removed',
      expected_version: edited.version,
    });
    expect((await api.notes.get(edited.note_id)).body).not.toContain('attachment:');
    await api.drafts.save({
      tab_id: 'tab-1',
      note_id: edited.note_id,
      title: 'edited',
      folder: '',
      tags: [],
      body: `typed, not saved ${link(inDraft.attachment_id)}`,
      base_version: 2,
      saved_at: new Date(NOW).toISOString(),
    });
    await db.table(IMPORT_STAGING_TABLE).put({
      job_id: 'job_1',
      note_id: 'n9',
      title: 't',
      folder: '',
      body: link(inStaging.attachment_id),
      tags: [],
      pinned: false,
      version: 1,
      written_version: null,
    });
    await db.messages.put({
      message_id: 'm1',
      conversation_id: 'c1',
      role: 'user',
      position: 0,
      content: 'what is on this slide?',
      images: [{ attachment_id: inChat.attachment_id, name: 'slide.png', mime_type: 'image/png' }],
    } as never);
    expect(await sweep.find()).toEqual({ count: 1, bytes: unused.size });
    expect(await sweep.delete()).toEqual({ count: 1, bytes: unused.size });
    expect(await db.attachments.count()).toBe(5);
  });

  it('keeps a picture an unfinished job or agent run names, not one a finished run named', async () => {
    const { db, sweep, picture } = notebook();
    const queued = await picture();
    const waiting = await picture();
    const finished = await picture();
    const job = (job_id: string, status: string, input: unknown) =>
      db.jobs.put({ job_id, kind: 'agent', status, input, created_at: new Date(NOW).toISOString() } as never);
    await job('job_q', 'queued', { prompt: `look at attachment:${queued.attachment_id}` });
    await job('job_done', 'completed', { prompt: `look at attachment:${finished.attachment_id}` });
    await db.table(AGENT_TABLES.runs).put({ run_id: 'run_1', job_id: 'job_r', status: 'running' });
    await db.events.put({
      resource_id: 'run_1',
      sequence: 1,
      event: 'tool.called',
      data: { args: { body: `![x](attachment:${waiting.attachment_id})` } },
      timestamp: new Date(NOW).toISOString(),
    });
    expect(await sweep.find()).toEqual({ count: 1, bytes: finished.size });
  });

  it('counts a link in any form: upper case, raw HTML, a code block', async () => {
    const { api, sweep, picture } = notebook();
    const shouted = await picture();
    const html = await picture();
    const code = await picture();
    await api.notes.create({
      title: 'forms',
      body: [
        `![a](ATTACHMENT:${shouted.attachment_id.toUpperCase()})`,
        `<img src="attachment:${html.attachment_id}">`,
        '```md',
        `![b](attachment:${code.attachment_id})`,
        '```',
      ].join('\n'),
    });
    expect(await sweep.find()).toEqual({ count: 0, bytes: 0 });
  });

  it('never judges audio, other files, or pictures an import is still writing', async () => {
    const { db, sweep, picture, attachments } = notebook();
    await picture('audio/wav');
    await attachments.put(new Blob(['zip']), { name: 'vault.zip', mime_type: 'application/zip' });
    await attachments.putOnce(new Blob([new Uint8Array(9)], { type: 'image/png' }), {
      name: 'imported.png',
      sha256: 'imported',
      importBatch: 'job_import',
    });
    expect(await sweep.find()).toEqual({ count: 0, bytes: 0 });
    expect(await sweep.delete()).toEqual({ count: 0, bytes: 0 });
    expect(await db.attachments.count()).toBe(3);
  });

  it('keeps a picture stored or handed out again within the grace period, and finds it once that has passed', async () => {
    const { sweep, picture, storeAt, setNow, attachments } = notebook();
    storeAt(NOW - 60 * 60 * 1000);
    const pasted = await picture();
    storeAt(NOW - TWO_DAYS);
    const old = await picture();
    // A paste of the same bytes hands the old picture out again: the page is about to link it.
    storeAt(NOW - 5 * 60 * 1000);
    const again = await attachments.putOnce(new Blob(['same']), { name: 'again.png', sha256: 'h2' });
    expect(again).toMatchObject({ created: false, attachment: { attachment_id: old.attachment_id } });
    expect(await sweep.find()).toEqual({ count: 0, bytes: 0 });
    setNow(NOW + UNUSED_PICTURE_GRACE_MS);
    expect(await sweep.find()).toEqual({ count: 2, bytes: pasted.size + old.size });
  });

  it('keeps a picture linked or handed out again after it was found unused (state changed before the delete)', async () => {
    const { api, sweep, picture, attachments, storeAt, stored } = notebook();
    const linkedLater = await picture();
    const handedOutLater = await picture();
    expect(await sweep.find()).toEqual({ count: 2, bytes: linkedLater.size + handedOutLater.size });
    await api.notes.create({ title: 'now linked', body: `![](attachment:${linkedLater.attachment_id})` });
    storeAt(NOW);
    await attachments.putOnce(new Blob(['x']), { name: 'x.png', sha256: 'h2' });
    expect(await sweep.delete()).toEqual({ count: 0, bytes: 0 });
    expect(await stored(linkedLater.attachment_id)).toBe(true);
    expect(await stored(handedOutLater.attachment_id)).toBe(true);
  });

  it('keeps a picture handed out again while the scan is reading the notebook', async () => {
    const { sweep, picture, attachments, storeAt, stored, onCursor } = notebook();
    const old = await picture();
    storeAt(NOW);
    let handOut: Promise<unknown> | null = null;
    // A paste in another tab, landing while the sweep reads the chat messages (after the notes),
    // outside the scan's read transaction as another tab's write would be.
    onCursor('messages', () => {
      handOut ??= Dexie.ignoreTransaction(() =>
        attachments.putOnce(new Blob(['same']), { name: 'same.png', sha256: 'h1' }),
      );
    });
    expect(await sweep.delete()).toEqual({ count: 0, bytes: 0 });
    expect(handOut).not.toBeNull();
    await handOut;
    expect(await stored(old.attachment_id)).toBe(true);
  });

  it('deletes all or nothing when a delete fails', async () => {
    const { db, sweep, picture } = notebook();
    await picture();
    await picture();
    let deletes = 0;
    const original = db.attachments.delete.bind(db.attachments);
    vi.spyOn(db.attachments, 'delete').mockImplementation((key) => {
      deletes += 1;
      return (deletes === 2 ? Dexie.Promise.reject(new Error('disk gone')) : original(key)) as ReturnType<
        typeof original
      >;
    });
    await expect(sweep.delete()).rejects.toThrow('disk gone');
    expect(deletes).toBe(2);
    expect(await db.attachments.count()).toBe(2);
  });
});

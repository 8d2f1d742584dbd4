import { afterEach, describe, expect, it } from 'vitest';
import { parseStoreChange, type StoreChange } from '../core/cross-tab-changes';
import { StoreChangeBroadcast } from './store-change-broadcast';
import { testCore } from './test-core';

let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

/** A core whose change messages are collected, each with what the store held when it was posted. */
function observedCore() {
  const messages: StoreChange[] = [];
  const posted: Promise<unknown>[] = [];
  let read: ((change: StoreChange) => Promise<unknown>) | null = null;
  const broadcast = new StoreChangeBroadcast(
    {
      postMessage: (message) => {
        const change = parseStoreChange(message);
        if (!change) throw new Error('an unreadable message was posted');
        messages.push(change);
        if (read) posted.push(read(change));
      },
    },
    'tab_test',
  );
  const core = testCore({ storeChanges: broadcast });
  close = core.close;
  return { core, messages, posted, readOnPost: (reader: typeof read) => (read = reader) };
}

describe('StoreChangeBroadcast', () => {
  it('tells other tabs of a note write once it is stored, naming this core', async () => {
    const { core, messages, posted, readOnPost } = observedCore();
    readOnPost(async (change) =>
      change.kind === 'notes' ? (await core.api.notes.get(change.ids[0]!)).title : null,
    );
    const note = await core.api.notes.create({ title: 'A', body: 'first' });
    await core.api.notes.update({ note_id: note.note_id, body: 'second', expected_version: note.version });
    const notes = messages.filter((message) => message.kind === 'notes');
    expect(notes).toEqual([
      { kind: 'notes', source: 'tab_test', change: 'upserted', ids: [note.note_id] },
      { kind: 'notes', source: 'tab_test', change: 'upserted', ids: [note.note_id] },
    ]);
    // A tab hearing of the new note reads it at once: the write it announces is already there.
    expect(await posted[0]).toBe('A');
  });

  it('tells other tabs of each stored event of a job, in order, up to its end', async () => {
    const { core, messages } = observedCore();
    const job = await core.api.archive.importFiles({ files: [{ path: 'vault/a.md', content: '# A' }] });
    await core.idle();
    const sequences = messages
      .filter((message) => message.kind === 'job' && message.ids[0] === job.job_id)
      .map((message) => (message.kind === 'job' ? message.sequence : -1));
    const stored = await core.api.events.list(job.job_id);
    expect(sequences).toEqual(stored.items.map((event) => event.sequence));
    expect(stored.items.at(-1)?.event).toBe('Completed');
  });
});

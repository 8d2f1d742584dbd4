import { describe, expect, it } from 'vitest';
import { MAX_BODY_LENGTH } from '../contracts/note-limits';
import type { NoteDto } from '../contracts';
import { DEFAULT_PAGE_ROWS } from '../db';
import { LinksService } from './links-service';
import type { NotesService } from './notes-service';
import { PagedNotesFake } from './test-paged-notes';
import { codeOf } from './test-error-code';

/** The parts of NotesService the links index calls, recording what it read whole and wrote. */
function notesServiceOver(fake: PagedNotesFake) {
  const read: string[] = [];
  const updated: string[] = [];
  let renamed: ((note: NoteDto, oldTitle: string) => Promise<unknown>) | null = null;
  const service = {
    onRenamed(listener: (note: NoteDto, oldTitle: string) => Promise<unknown>) {
      renamed = listener;
    },
    onMoved() {},
    async get(noteId: string) {
      read.push(noteId);
      return (await fake.get(noteId))!;
    },
    async update(input: { note_id: string; body: string }) {
      updated.push(input.note_id);
      const note = fake.notes.get(input.note_id)!;
      fake.notes.set(note.note_id, { ...note, body: input.body, version: note.version + 1 });
      return fake.notes.get(input.note_id)!;
    },
  };
  return {
    service: service as unknown as NotesService,
    read,
    updated,
    rename: (note: NoteDto, oldTitle: string) => renamed!(note, oldTitle),
  };
}

const SCAN = 10_000;

/** A note far longer than the scan bound: a link near its start, another past the bound. */
function longBody(chars: number): string {
  const head = 'Starts with [[Target]] near the top.\n';
  const tail = '\nEnds with [[Far away]] past the bound.\n';
  return head + 'filler line\n'.repeat(Math.ceil((chars - head.length - tail.length) / 12)) + tail;
}

describe('LinksService over a notebook read a page at a time', () => {
  it('builds the index page by page, reads a long note only up to the bound, and names it', async () => {
    const fake = new PagedNotesFake();
    fake.add({ note_id: 'note_target', title: 'Target', body: 'plain' });
    fake.add({ note_id: 'note_far', title: 'Far away', body: 'plain' });
    for (let i = 0; i < 450; i++) {
      fake.add({ note_id: `note_${i}`, title: `Small ${i}`, body: i === 7 ? 'see [[Target]]' : 'text' });
    }
    const huge = fake.add({ note_id: 'note_huge', title: 'Huge log', body: longBody(5 * SCAN) });
    const links = new LinksService(fake, notesServiceOver(fake).service, { scanChars: SCAN });

    expect((await links.backlinks('note_target')).map((link) => link.note_id).sort()).toEqual([
      'note_7',
      'note_huge',
    ]);
    // The link past the bound is not indexed, and the coverage says which note that can happen in.
    expect(await links.backlinks('note_far')).toEqual([]);
    expect(await links.coverage()).toEqual({
      scanned_chars: SCAN,
      partly_scanned: [{ note_id: 'note_huge', title: 'Huge log', body_length: huge.body.length }],
    });

    expect(fake.wholeNotebookReads).toBe(0);
    expect(fake.pages).toBeGreaterThanOrEqual(3);
    expect(fake.peakRows).toBeLessThanOrEqual(DEFAULT_PAGE_ROWS);
    expect(fake.longestWholeBody).toBeLessThan(SCAN);
    expect(fake.overlapping).toBe(false);
  });

  it('re-reads many changed notes (an import) a page at a time, and forgets the ones gone', async () => {
    const fake = new PagedNotesFake();
    fake.add({ note_id: 'note_target', title: 'Target', body: 'plain' });
    const links = new LinksService(fake, notesServiceOver(fake).service, { scanChars: SCAN });
    expect(await links.backlinks('note_target')).toEqual([]);
    const ids = [];
    for (let i = 0; i < 450; i++)
      ids.push(fake.add({ note_id: `note_${i}`, title: `N ${i}`, body: '[[Target]]' }).note_id);
    const pagesBefore = fake.pages;
    links.notesChanged({ kind: 'upserted', note_ids: [...ids, 'note_never_written'] });
    expect(await links.backlinks('note_target')).toHaveLength(450);
    expect(fake.pages - pagesBefore).toBeGreaterThanOrEqual(3);
    expect(fake.peakRows).toBeLessThanOrEqual(DEFAULT_PAGE_ROWS);
    for (const id of ids.slice(0, 10)) fake.notes.delete(id);
    links.notesChanged({ kind: 'removed', note_ids: ids.slice(0, 10) });
    expect(await links.backlinks('note_target')).toHaveLength(440);
  });

  it('a note that shrinks below the bound leaves the coverage; a missing one is NOTE_NOT_FOUND', async () => {
    const fake = new PagedNotesFake();
    fake.add({ note_id: 'note_huge', title: 'Huge log', body: longBody(2 * SCAN) });
    const links = new LinksService(fake, notesServiceOver(fake).service, { scanChars: SCAN });
    expect((await links.coverage()).partly_scanned).toHaveLength(1);
    fake.add({ note_id: 'note_huge', title: 'Huge log', body: 'short now' });
    links.notesChanged({ kind: 'upserted', note_ids: ['note_huge'] });
    expect((await links.coverage()).partly_scanned).toEqual([]);
    expect(await codeOf(links.backlinks('note_nowhere'))).toBe('NOTE_NOT_FOUND');
    expect(await codeOf(links.backlinks(''))).toBe('VALIDATION_FAILED');
  });

  it('a read failing mid-build leaves no half index: the next query builds it whole', async () => {
    const fake = new PagedNotesFake();
    fake.add({ note_id: 'note_doomed', title: 'Doomed', body: '[[Small 0]]' });
    for (let i = 0; i < 450; i++) {
      fake.add({ note_id: `note_${i}`, title: `Small ${i}`, body: i === 449 ? '[[Small 0]]' : 'text' });
    }
    fake.failOnPage = 3;
    const links = new LinksService(fake, notesServiceOver(fake).service, { scanChars: SCAN });
    await expect(links.backlinks('note_0')).rejects.toThrow('the disk went away');
    // A note read before the failure and deleted since leaves no backlink behind.
    fake.notes.delete('note_doomed');
    fake.failOnPage = null;
    expect((await links.backlinks('note_0')).map((link) => link.note_id)).toEqual(['note_449']);
  });

  it('a rename does not read or rewrite a note too long to be saved, and rewrites the others', async () => {
    const fake = new PagedNotesFake();
    const target = fake.add({ note_id: 'note_target', title: 'Target', body: 'plain' });
    fake.add({ note_id: 'note_small', title: 'Small', body: 'see [[Target]]' });
    fake.add({ note_id: 'note_huge', title: 'Huge log', body: longBody(MAX_BODY_LENGTH + SCAN) });
    const notes = notesServiceOver(fake);
    const links = new LinksService(fake, notes.service, { scanChars: SCAN });
    expect(await links.backlinks('note_target')).toHaveLength(2);
    const renamed = fake.add({ ...target, title: 'Renamed', version: 2 });
    links.notesChanged({ kind: 'upserted', note_ids: ['note_target'] });
    await notes.rename(renamed, 'Target');
    expect(notes.updated).toEqual(['note_small']);
    expect(notes.read).not.toContain('note_huge');
    expect(fake.notes.get('note_small')?.body).toBe('see [[Renamed]]');
  });
});

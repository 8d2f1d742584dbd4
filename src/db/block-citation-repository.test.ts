import { afterEach, describe, expect, it } from 'vitest';
import type { NotesAgentDatabase } from './database';
import {
  BlockCitationRepository,
  BLOCK_CITATIONS_TABLE,
  type BlockCitationDraft,
} from './block-citation-repository';
import { NotesRepository } from './notes-repository';
import { freshDatabase } from './test-database';

let db: NotesAgentDatabase;
afterEach(async () => db?.delete());

const cite = (start_time: number, end_time: number, speaker: string | null = null): BlockCitationDraft => ({
  source_audio: 'attachment_1',
  start_time,
  end_time,
  speaker,
  job_id: 'job_1',
});

describe('BlockCitationRepository', () => {
  it('stores the note and one citation per block, in block order', async () => {
    db = freshDatabase();
    const notes = new NotesRepository(db);
    const citations = new BlockCitationRepository(db);
    const { note } = await citations.createNoteWithCitations(
      notes,
      { title: 'Talk', folder: '', body: 'First.\n\nSecond.\n', tags: [] },
      [cite(0, 2, 'SPEAKER_00'), cite(2, 5)],
    );
    const blocks = await notes.blocks(note.note_id);
    const stored = await citations.forNote(note.note_id);
    expect(stored.map((row) => [row.block_id, row.start_time, row.end_time, row.speaker])).toEqual([
      [blocks[0]!.block_id, 0, 2, 'SPEAKER_00'],
      [blocks[1]!.block_id, 2, 5, null],
    ]);
  });

  it('stores nothing when blocks and citations do not line up', async () => {
    db = freshDatabase();
    const notes = new NotesRepository(db);
    const citations = new BlockCitationRepository(db);
    await expect(
      citations.createNoteWithCitations(
        notes,
        { title: 'Talk', folder: '', body: 'One.\n\nTwo.\n', tags: [] },
        [cite(0, 1)],
      ),
    ).rejects.toThrow(/nothing was stored/);
    expect(await db.notes.count()).toBe(0);
    expect(await db.blocks.count()).toBe(0);
    expect(await db.table(BLOCK_CITATIONS_TABLE).count()).toBe(0);
  });

  it('drops the citation of a block edited away and keeps the others', async () => {
    db = freshDatabase();
    const notes = new NotesRepository(db);
    const citations = new BlockCitationRepository(db);
    const { note } = await citations.createNoteWithCitations(
      notes,
      { title: 'Talk', folder: '', body: 'Kept.\n\nChanged.\n', tags: [] },
      [cite(0, 1), cite(1, 2)],
    );
    await notes.update(note.note_id, { body: 'Kept.\n\nRewritten entirely by hand.\n' });
    expect((await citations.forNote(note.note_id)).map((row) => row.start_time)).toEqual([0]);
  });
});

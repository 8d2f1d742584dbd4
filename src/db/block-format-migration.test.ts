import { afterEach, describe, expect, it } from 'vitest';
import { NotesAgentDatabase } from './database';
import { BlockCitationRepository } from './block-citation-repository';
import { NotesRepository } from './notes-repository';
import { MIGRATIONS, type BlockRow } from './schema';
import { freshDatabase } from './test-database';

let db: NotesAgentDatabase | undefined;
afterEach(async () => db?.delete());

const BODY = '# 会议\n\nKept paragraph.\n\n| a |\n---\n\nLast words.';

/** Blocks as the line splitter stored them: `| a |` over `---` was a setext heading. */
const OLD_BLOCKS: BlockRow[] = [
  ['old-h', 'heading', '# 会议', 0, 0],
  ['old-p', 'paragraph', 'Kept paragraph.', 2, 2],
  ['old-t', 'heading', '| a |\n---', 4, 5],
  ['old-l', 'paragraph', 'Last words.', 7, 7],
].map(([block_id, type, text, start_line, end_line], position) => ({
  block_id: String(block_id),
  note_id: 'n1',
  type: type as BlockRow['type'],
  position,
  text: String(text),
  start_line: Number(start_line),
  end_line: Number(end_line),
  hash: 'stale',
}));

describe('block format migration (version 16)', () => {
  it('re-cuts stored blocks by the Document AST, keeps unchanged ids and moves audio citations', async () => {
    const before = MIGRATIONS.filter((migration) => migration.version < 16);
    const old = freshDatabase(before);
    db = old;
    await old.notes.add({
      note_id: 'n1',
      title: '会议',
      folder: '',
      body: BODY,
      tags: [],
      version: 1,
      created_at: 'x',
      updated_at: 'x',
      deleted_at: null,
      trashed: 0,
    });
    await old.blocks.bulkAdd(OLD_BLOCKS);
    const citation = {
      note_id: 'n1',
      source_audio: 'a1',
      start_time: 3,
      end_time: 5,
      speaker: null,
      job_id: 'j1',
    };
    await old.table('block_citations').bulkAdd([
      { ...citation, block_id: 'old-p' },
      { ...citation, block_id: 'old-t', start_time: 7 },
    ]);
    old.close();

    db = new NotesAgentDatabase(old.name);
    const notes = new NotesRepository(db);
    const blocks = await notes.blocks('n1');
    expect(blocks.map((block) => [block.type, block.start_line, block.end_line])).toEqual([
      ['heading', 0, 0],
      ['paragraph', 2, 2],
      ['table', 4, 5],
      ['paragraph', 7, 7],
    ]);
    const ids = blocks.map((block) => block.block_id);
    expect(ids[0]).toBe('old-h');
    expect(ids[1]).toBe('old-p');
    expect(ids[3]).toBe('old-l');
    // A heading that became a table is another block: a new id, never an old one.
    expect(ids[2]).not.toMatch(/^old-/);
    expect(await db.blocks.get('old-t')).toBeUndefined();

    // The citation of the re-cut block now names the block on its line, so it still plays.
    const cited = await new BlockCitationRepository(db).forNote('n1');
    expect(cited.map((row) => [row.block_id, row.start_time])).toEqual([
      ['old-p', 3],
      [ids[2], 7],
    ]);
  });

  it('upgrades a database with no notes', async () => {
    const old = freshDatabase(MIGRATIONS.filter((migration) => migration.version < 16));
    db = old;
    await old.open();
    old.close();
    db = new NotesAgentDatabase(old.name);
    await db.open();
    expect(db.verno).toBeGreaterThanOrEqual(16);
    expect(await db.blocks.count()).toBe(0);
  });
});

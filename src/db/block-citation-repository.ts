import type { NoteDto } from '../contracts';
import { Dexie, type NotesAgentDatabase } from './database';
import type { NoteDraft, NotesRepository } from './notes-repository';

/** The store added in schema version 5; reached by name, like the agent's stores. */
export const BLOCK_CITATIONS_TABLE = 'block_citations';

/**
 * Where a note block came from (§5.4): a span of an audio attachment, so the
 * editor, search and agent answers can jump back to the moment it was said.
 */
export interface BlockCitationRow {
  block_id: string;
  note_id: string;
  /** Attachment id of the audio. */
  source_audio: string;
  start_time: number;
  end_time: number;
  speaker: string | null;
  /** The transcription job the note was made from. */
  job_id: string;
}

export type BlockCitationDraft = Omit<BlockCitationRow, 'block_id' | 'note_id'>;

export class BlockCitationRepository {
  readonly #db: NotesAgentDatabase;

  constructor(db: NotesAgentDatabase) {
    this.#db = db;
  }

  get #table() {
    return this.#db.table<BlockCitationRow, string>(BLOCK_CITATIONS_TABLE);
  }

  /**
   * Creates the note and one citation per block (the i-th citation for the i-th
   * block) in one transaction: when the blocks and the citations do not line
   * up, neither the note nor any citation is stored.
   */
  async createNoteWithCitations(
    notes: NotesRepository,
    draft: NoteDraft,
    citations: readonly BlockCitationDraft[],
  ): Promise<{ note: NoteDto; citations: BlockCitationRow[] }> {
    // Every store a note's creation writes (its meta row too), or Dexie refuses the nested write.
    return this.#db.transaction(
      'rw',
      this.#db.notes,
      this.#db.note_meta,
      this.#db.blocks,
      this.#table,
      async () => {
        const note = await notes.create(draft);
        const blocks = await this.#blocksInOrder(note.note_id);
        if (blocks.length !== citations.length) {
          throw new Error(
            `transcript note: ${blocks.length} blocks but ${citations.length} citations; nothing was stored`,
          );
        }
        const rows = blocks.map((block, index) => ({
          ...citations[index]!,
          block_id: block.block_id,
          note_id: note.note_id,
        }));
        await this.#table.bulkAdd(rows);
        return { note, citations: rows };
      },
    );
  }

  /** The note's citations in block order; blocks edited away since then have none. */
  async forNote(noteId: string): Promise<BlockCitationRow[]> {
    return this.#db.transaction('r', this.#db.blocks, this.#table, async () => {
      const [blocks, rows] = await Promise.all([
        this.#blocksInOrder(noteId),
        this.#table.where('note_id').equals(noteId).toArray(),
      ]);
      const byBlock = new Map(rows.map((row) => [row.block_id, row]));
      return blocks.flatMap((block) => {
        const row = byBlock.get(block.block_id);
        return row ? [row] : [];
      });
    });
  }

  #blocksInOrder(noteId: string) {
    return this.#db.blocks
      .where('[note_id+position]')
      .between([noteId, Dexie.minKey], [noteId, Dexie.maxKey])
      .toArray();
  }
}

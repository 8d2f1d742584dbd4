import { AppError, MAX_BENCHMARK_NOTE_BODY, type BenchmarkCutNoteDto } from '../contracts';
import type { NotebookNote } from '../benchmarks/dataset';
import { parseBlocks } from '../core/blocks';
import type { NotesRepository } from '../db';
import { blocksWithin } from '../db/note-pages';

/** What "benchmark my notes" reads of the notebook. */
export type NotebookReader = Pick<
  NotesRepository,
  'noteIds' | 'forEachNotePage' | 'indexSources' | 'blockCount'
>;

/**
 * Characters of a note a "benchmark my notes" dataset copies: the dataset
 * format's own bound on a note's body (`MAX_BENCHMARK_NOTE_BODY`), which is
 * below the indexer's per-note cap, so every copied character is also one
 * the notebook's search holds. A longer note is copied up to its last whole
 * block within the bound; before, such a note made the whole dataset invalid.
 */
export const DATASET_NOTE_CHARS = MAX_BENCHMARK_NOTE_BODY;

/** A note copied only in part, and where the copy ends. */
export type CutNote = BenchmarkCutNoteDto;

/**
 * The live notes as a dataset copies them, read a page at a time: memory holds
 * one page of notes (bodies up to `maxChars` each, the rest never read) and
 * the copy being built, which is at most `maxChars` per note. A note's blocks
 * come with it so the cases' block ids stay valid in the copy. `picked` are
 * the cases' blocks (see `datasetFromNotes`); a case whose block lies past
 * where its note's copy ends is BENCHMARK_DATASET_INVALID naming the case.
 */
export async function notebookForDataset(
  notes: NotebookReader,
  picked: ReadonlyArray<{ note_id: string; block_id: string } | undefined>,
  maxChars: number = DATASET_NOTE_CHARS,
): Promise<{ notes: NotebookNote[]; cut: CutNote[] }> {
  const copied: NotebookNote[] = [];
  const cut: CutNote[] = [];
  const ids = await notes.noteIds({ trashed: false });
  await notes.forEachNotePage(
    ids,
    async (page) => {
      const sources = new Map(
        (
          await notes.indexSources(
            page.map((note) => note.note_id),
            maxChars,
          )
        ).map((source) => [source.note.note_id, source.blocks]),
      );
      for (const note of page) {
        const blocks = sources.get(note.note_id);
        // Trashed since its id was listed.
        if (note.deleted_at !== null || !blocks) continue;
        const fields = { note_id: note.note_id, title: note.title, folder: note.folder, tags: note.tags };
        if (note.body_complete) {
          copied.push({ ...fields, body: note.body, block_ids: blocks.map((block) => block.block_id) });
          continue;
        }
        const kept = blocksWithin(blocks, maxChars);
        copied.push({ ...fields, body: kept.body, block_ids: idsByLine(note.note_id, kept) });
        cut.push({
          note_id: note.note_id,
          title: note.title,
          body_length: note.body_length,
          kept_chars: kept.body.length,
          kept_block_count: kept.blocks.length,
          // Counted from the block index: the blocks past the cut are never read.
          block_count: await notes.blockCount(note.note_id),
        });
      }
    },
    { maxBodyChars: maxChars },
  );
  checkPickedWithinCopies(picked, copied, cut, maxChars);
  return { notes: copied, cut };
}

/**
 * The block ids of a copy rebuilt from stored blocks, one per block the
 * parser cuts from it: the stored block that starts on the same line, else
 * an id of the copy's own (a rebuilt text could parse differently at its
 * edges; an id no stored block has keeps the dataset valid).
 */
function idsByLine(
  noteId: string,
  kept: { blocks: ReadonlyArray<{ block_id: string; start_line: number }>; body: string },
): string[] {
  const byLine = new Map(kept.blocks.map((block) => [block.start_line, block.block_id]));
  const used = new Set<string>();
  return parseBlocks(kept.body).map((block, index) => {
    const id = byLine.get(block.start_line);
    if (id !== undefined && !used.has(id)) {
      used.add(id);
      return id;
    }
    return `${noteId}#copy-${index}`;
  });
}

function checkPickedWithinCopies(
  picked: ReadonlyArray<{ note_id: string; block_id: string } | undefined>,
  copied: readonly NotebookNote[],
  cut: readonly CutNote[],
  maxChars: number,
): void {
  if (cut.length === 0) return;
  const cutById = new Map(cut.map((note) => [note.note_id, note]));
  const kept = new Map(
    copied.filter((note) => cutById.has(note.note_id)).map((note) => [note.note_id, new Set(note.block_ids)]),
  );
  picked.forEach((block, index) => {
    const note = block && cutById.get(block.note_id);
    if (!block || !note || kept.get(note.note_id)?.has(block.block_id)) return;
    throw new AppError(
      'BENCHMARK_DATASET_INVALID',
      `Case ${index + 1}: the chosen block lies past the first ${maxChars.toLocaleString('en')} characters of “${note.title}”, which is as much of a note as a dataset holds.`,
      {
        case_id: `mine-${String(index + 1).padStart(3, '0')}`,
        field: `cases.${index}.block_id`,
      },
    );
  });
}

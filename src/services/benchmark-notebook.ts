import {
  AppError,
  BENCHMARK_BLOCK_LABEL_CHARS,
  MAX_BENCHMARK_NOTE_BODY,
  type BenchmarkBlockChoiceDto,
  type BenchmarkCutNoteDto,
  type BenchmarkNoteBlocksDto,
  type NoteSummaryDto,
} from '../contracts';
import { choiceType, headingLevel, headingWords, isAnswerable } from '../benchmarks/answer-choices';
import type { NotebookNote } from '../benchmarks/dataset';
import { parseBlocks } from '../core/blocks';
import type { NotesRepository } from '../db';
import { blocksWithin } from '../db/note-pages';
import type { BlockRow } from '../db/schema';

/** What "benchmark my notes" reads of the notebook. */
export type NotebookReader = Pick<
  NotesRepository,
  'noteIds' | 'forEachNotePage' | 'indexSources' | 'blockCount'
>;

/** What the block picker reads of one note: its meta row, block counts and its first blocks. */
export type NoteBlocksReader = Pick<
  NotesRepository,
  'forEachSummaryPage' | 'indexSources' | 'blockCount' | 'firstBlocks'
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
        const copy = cutCopy(note.note_id, blocks, maxChars);
        copied.push({ ...fields, body: copy.body, block_ids: copy.block_ids });
        cut.push(await cutNoteOf(notes, note, copy));
      }
    },
    { maxBodyChars: maxChars },
  );
  checkPickedWithinCopies(picked, copied, cut, maxChars);
  return { notes: copied, cut };
}

/**
 * What a dataset keeps of a note over `maxChars`, from its first stored
 * blocks (up to the bound and the one that crosses it): the copy's body,
 * ending at its last whole block within the bound, the copy's block ids, and
 * the stored blocks it holds.
 */
function cutCopy(
  noteId: string,
  blocks: readonly BlockRow[],
  maxChars: number,
): { body: string; block_ids: string[]; kept: BlockRow[] } {
  const kept = blocksWithin(blocks, maxChars);
  return { body: kept.body, block_ids: idsByLine(noteId, kept), kept: kept.blocks };
}

/** The cut note as the user is told of it; its blocks are counted from the block index, those past the cut never read. */
async function cutNoteOf(
  notes: Pick<NotesRepository, 'blockCount'>,
  note: { note_id: string; title: string; body_length: number },
  copy: { body: string; kept: readonly BlockRow[] },
): Promise<CutNote> {
  return {
    note_id: note.note_id,
    title: note.title,
    body_length: note.body_length,
    kept_chars: copy.body.length,
    kept_block_count: copy.kept.length,
    block_count: await notes.blockCount(note.note_id),
  };
}

/**
 * The blocks of one live note that a case can name, as the dataset picker
 * lists them: those a dataset built now would keep (see `notebookForDataset`:
 * a note over `maxChars` only up to its last whole block within it), the
 * first `limit` of them, each as its id and a short label. What is read is
 * bounded whatever the note's size: its meta row, the block counts from the
 * index keys, and the first `limit` block rows — or, for a note over
 * `maxChars`, its blocks up to the bound (and the one that crosses it); the
 * note's body and its blocks past that are never read. Undefined when the
 * note is missing or in the trash (a dataset copies neither).
 */
export async function noteBlocksForDataset(
  notes: NoteBlocksReader,
  noteId: string,
  options: { limit: number; maxChars?: number; labelChars?: number },
): Promise<BenchmarkNoteBlocksDto | undefined> {
  const maxChars = options.maxChars ?? DATASET_NOTE_CHARS;
  const label = (block: { block_id: string; type: string; text: string }): BenchmarkBlockChoiceDto =>
    blockChoice(block, options.labelChars ?? BENCHMARK_BLOCK_LABEL_CHARS);
  let note: NoteSummaryDto | undefined;
  await notes.forEachSummaryPage([noteId], (page) => {
    note = page[0];
  });
  if (!note || note.deleted_at !== null) return undefined;
  const fields = { note_id: note.note_id, title: note.title };
  // Read apart from the blocks below: a note changed in between lists what the dataset checks again when made.
  const blockCount = await notes.blockCount(noteId);
  if (note.body_length <= maxChars) {
    const first = await notes.firstBlocks(noteId, options.limit);
    return {
      ...fields,
      items: first.map(label),
      kept_block_count: blockCount,
      block_count: blockCount,
      cut: null,
    };
  }
  const [source] = await notes.indexSources([noteId], maxChars);
  // Trashed since its meta row was read.
  if (!source) return undefined;
  const copy = cutCopy(noteId, source.blocks, maxChars);
  // A case is checked against the copy's ids: only stored blocks the copy names can be picked.
  const named = new Set(copy.block_ids);
  const pickable = copy.kept.filter((block) => named.has(block.block_id));
  const cut = await cutNoteOf(notes, note, copy);
  return {
    ...fields,
    items: pickable.slice(0, options.limit).map(label),
    kept_block_count: pickable.length,
    block_count: cut.block_count,
    cut,
  };
}

/**
 * A block as the picker lists it: its parser type, so the picker groups by
 * heading without reading Markdown markers, a heading's level and words, and
 * whether a case may expect it (see `isAnswerable`).
 */
export function blockChoice(
  block: { block_id: string; type: string; text: string; level?: number },
  labelChars: number,
): BenchmarkBlockChoiceDto {
  const type = choiceType(block.type);
  const answerable = isAnswerable(type, block.text);
  if (type !== 'heading') {
    return { block_id: block.block_id, label: blockLabel(block.text, labelChars), type, answerable };
  }
  // A heading is a line or two: its words and level are read from the whole of it.
  return {
    block_id: block.block_id,
    label: blockLabel(headingWords(block.text), labelChars),
    type,
    level: block.level ?? headingLevel(block.text),
    answerable,
  };
}

/** The start of a block's text as one line: whitespace folded, at most `chars` characters with the `…` that says it goes on. */
export function blockLabel(text: string, chars: number): string {
  // Only as much of the text as a label can show is looked at: a block can be megabytes.
  const window = text.slice(0, chars * 4);
  const folded = window.replace(/\s+/gu, ' ').trim();
  if (folded.length <= chars && window.length === text.length) return folded;
  let end = Math.min(folded.length, chars - 1);
  // Never between the two halves of a character outside the BMP.
  const last = folded.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${folded.slice(0, end).trimEnd()}…`;
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

import type { IndexSource } from '../db';
import type { FullTextDocument, FullTextNoteSegment } from './full-text-index';
import { tokenize } from './tokenizer';

/**
 * The id of the one document that stands for a note with a title and no text:
 * without it such a note could not be found at all. Block ids never contain `:`.
 */
export function titleDocumentId(noteId: string): string {
  return `${noteId}:title`;
}

/**
 * The blocks of a note as the indexes take them; rules and empty blocks have
 * nothing to find. A note with a title but no text is indexed by its title.
 */
export function documentsOf(source: IndexSource): FullTextDocument[] {
  const { note, blocks } = source;
  const documents = blocks
    .filter((block) => block.type !== 'rule' && block.text.trim() !== '')
    .map((block) => ({
      block_id: block.block_id,
      note_id: note.note_id,
      text: block.text,
      title: note.title,
      folder: note.folder,
      tags: note.tags,
    }));
  if (documents.length > 0 || note.title.trim() === '') return documents;
  return [
    {
      block_id: titleDocumentId(note.note_id),
      note_id: note.note_id,
      text: note.title,
      title: note.title,
      folder: note.folder,
      tags: note.tags,
    },
  ];
}

/**
 * A note's documents as the stored per-note segment, tokenized once here: the
 * indexer adds the segment to the full-text index (which then tokenizes
 * nothing) and writes the same object as the note's row. Title, folder and
 * tags are the note's, so they come from the first document; undefined for a
 * note with nothing to index.
 */
export function noteSegmentOf(
  noteId: string,
  documents: readonly FullTextDocument[],
): FullTextNoteSegment | undefined {
  const first = documents[0];
  if (first === undefined) return undefined;
  const title = first.title ?? '';
  const [title_terms, title_tf] = encodedTerms(title);
  return {
    note_id: noteId,
    title,
    folder: first.folder ?? '',
    tags: [...(first.tags ?? [])],
    title_terms,
    title_tf,
    blocks: documents.map((document) => [document.block_id, document.text, ...encodedTerms(document.text)]),
  };
}

/** Each distinct term once in first-seen order, space-separated; counts only when some term repeats. */
function encodedTerms(text: string): [string, number[]] {
  const counts = new Map<string, number>();
  for (const term of tokenize(text)) counts.set(term, (counts.get(term) ?? 0) + 1);
  let repeated = false;
  for (const count of counts.values()) if (count !== 1) repeated = true;
  return [[...counts.keys()].join(' '), repeated ? [...counts.values()] : []];
}

import { headingPathText, headingPaths } from '../core/heading-path';
import { inlineTags } from '../core/inline-tags';
import { tagKey } from '../core/tag-key';
import type { IndexSource } from '../db';
import { namesText, type FullTextDocument, type FullTextNoteSegment } from './full-text-index';
import { tokenize } from './tokenizer';

/**
 * Version of what a block's document holds beyond its own text. Stored indexes
 * made under another one are rebuilt at start (the indexer stores it with the
 * full-text format). `sections-1`: headings and tag-only paragraphs are not
 * documents of their own; each block is searched with its heading path.
 * `sections-2`: the note's aliases are searched with its title.
 */
export const INDEX_DOCUMENTS_FORMAT = 'sections-2';

/** A block as the indexes take it: `text` is the block's own, `section` joins it in `searchedText`. */
export interface IndexDocument extends FullTextDocument {
  /** The block's heading path ("Scheduling › Round robin"); absent under no heading. */
  section?: string;
}

/**
 * The id of the one document that stands for a note with a title and no text:
 * without it such a note could not be found at all. Block ids never contain `:`.
 */
export function titleDocumentId(noteId: string): string {
  return `${noteId}:title`;
}

/**
 * The blocks of a note as the indexes take them, each with its heading path.
 * Rules and empty blocks have nothing to find; headings and paragraphs of
 * nothing but inline tags are only labels, which as passages of their own
 * would be found in place of the text they label (their words reach that text
 * through its heading path), so they are left out unless the note has nothing
 * else. A note with a title but no text is indexed by its title.
 * `aliases`: the note's other names (front matter `aliases:`, `noteAliases`),
 * searched with the title: a match on one lifts the note as a title match does.
 */
export function documentsOf(source: IndexSource, aliases: readonly string[] = []): IndexDocument[] {
  const { note, blocks } = source;
  const paths = headingPaths(blocks);
  const candidates = blocks.flatMap((block, position) =>
    block.type === 'rule' || block.text.trim() === ''
      ? []
      : [{ block, section: headingPathText(paths[position] ?? []) }],
  );
  const content = candidates.filter(({ block }) => !isLabel(block));
  const documents = (content.length > 0 ? content : candidates).map(({ block, section }): IndexDocument => ({
    block_id: block.block_id,
    note_id: note.note_id,
    text: block.text,
    title: note.title,
    ...(aliases.length > 0 && { aliases }),
    folder: note.folder,
    tags: note.tags,
    ...(section !== '' && { section }),
  }));
  if (documents.length > 0 || note.title.trim() === '') return documents;
  return [
    {
      block_id: titleDocumentId(note.note_id),
      note_id: note.note_id,
      text: note.title,
      title: note.title,
      ...(aliases.length > 0 && { aliases }),
      folder: note.folder,
      tags: note.tags,
    },
  ];
}

/**
 * What is indexed for a document: its heading path, then its text
 * ("Scheduling › Round robin: Each process…"). The full-text terms, the
 * embedding input and the passage "Ask your notes" sends all come from this,
 * so the modes agree on what a block is about; snippets show the block's own
 * text, from the blocks table.
 */
export function searchedText(document: Pick<IndexDocument, 'text' | 'section'>): string {
  return document.section === undefined ? document.text : `${document.section}: ${document.text}`;
}

/**
 * A note's documents as the stored per-note segment, tokenized once here: the
 * indexer adds the segment to the full-text index (which then tokenizes
 * nothing) and writes the same object as the note's row. A block is stored as
 * its searched text (heading path first), so the index removes and re-encodes
 * it from that text alone. Title, folder and tags are the note's, so they come
 * from the first document; undefined for a note with nothing to index.
 */
export function noteSegmentOf(
  noteId: string,
  documents: readonly IndexDocument[],
): FullTextNoteSegment | undefined {
  const first = documents[0];
  if (first === undefined) return undefined;
  const title = first.title ?? '';
  const aliases = first.aliases ?? [];
  const [title_terms, title_tf] = encodedTerms(namesText(title, aliases));
  return {
    note_id: noteId,
    title,
    folder: first.folder ?? '',
    tags: [...(first.tags ?? [])],
    ...(aliases.length > 0 && { aliases: [...aliases] }),
    title_terms,
    title_tf,
    blocks: documents.map((document) => {
      const text = searchedText(document);
      return [document.block_id, text, ...encodedTerms(text)];
    }),
  };
}

/** A heading, or a paragraph of nothing but inline tags (`#os #draft`). */
function isLabel(block: { type: string; text: string }): boolean {
  if (block.type === 'heading') return true;
  return block.type === 'paragraph' && isTagsOnly(block.text);
}

// A word that may be a tag: `#` first, perhaps inside emphasis marks (`**#tag**`).
const MARKS = /^[*_~]+|[*_~]+$/g;

/**
 * True when every word of the paragraph is one of its inline tags. The cheap
 * look at the words comes first: most paragraphs have a word without `#` and
 * are never parsed for tags.
 */
export function isTagsOnly(text: string): boolean {
  const words = text
    .split(/\s+/u)
    .filter((word) => word !== '')
    .map((word) => word.replace(MARKS, ''));
  if (words.length === 0 || !words.every((word) => word.startsWith('#'))) return false;
  const tags = new Set(inlineTags(text).map(tagKey));
  return words.every((word) => tags.has(tagKey(word.slice(1).replace(/\/+$/, ''))));
}

/** Each distinct term once in first-seen order, space-separated; counts only when some term repeats. */
function encodedTerms(text: string): [string, number[]] {
  const counts = new Map<string, number>();
  for (const term of tokenize(text)) counts.set(term, (counts.get(term) ?? 0) + 1);
  let repeated = false;
  for (const count of counts.values()) if (count !== 1) repeated = true;
  return [[...counts.keys()].join(' '), repeated ? [...counts.values()] : []];
}

import { headingPathText, headingPaths } from '../core/heading-path';
import { inlineTags } from '../core/inline-tags';
import { footnoteLinks, type FootnoteBlock } from '../core/markdown/footnote-links';
import { tagKey } from '../core/tag-key';
import type { IndexSource } from '../db';
import { bodyTerms, namesText, type FullTextDocument, type FullTextNoteSegment } from './full-text-index';
import { tokenize } from './tokenizer';

/**
 * Version of what a block's document holds beyond its own text. Stored indexes
 * made under another one are rebuilt at start (the indexer stores it with the
 * full-text format). `sections-1`: headings and tag-only paragraphs are not
 * documents of their own; each block is searched with its heading path.
 * `sections-2`: the note's aliases are searched with its title.
 * `footnotes-1`: a block that cites footnotes carries their definitions, and a
 * cited definition is no document of its own.
 * `links-1`: a `[[link]]` adds its label to a block's terms, not the linked
 * note's name (`withoutLinkTargets`).
 */
export const INDEX_DOCUMENTS_FORMAT = 'links-1';

/** A block as the indexes take it: `text` is the block's own, `section` joins it in `searchedText`. */
export interface IndexDocument extends FullTextDocument {
  /** The block's heading path ("Scheduling › Round robin"); absent under no heading. */
  section?: string;
  /**
   * The definitions of the footnotes the block cites, as written (`[^1]: …`),
   * blank-line separated, after the block in `searchedText`; absent when it cites none.
   */
  footnotes?: string;
}

/**
 * Characters of footnote text one block carries at most: a long footnote cited
 * from many blocks must not multiply a note's indexed size.
 */
export const MAX_ATTACHED_FOOTNOTE_CHARS = 2_000;
/** Between a block's text and its footnotes in `searchedText`; `attachedFootnotes` splits there. */
const FOOTNOTES_SEPARATOR = '\n\n';

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
 * A block that cites footnotes carries their text, so a search for words of a
 * footnote finds the claim it backs and the model reads both; a definition
 * cited by some indexed block is therefore no passage of its own (one that no
 * block cites still is, or its words could not be found at all).
 */
export function documentsOf(source: IndexSource, aliases: readonly string[] = []): IndexDocument[] {
  const { note, blocks } = source;
  const paths = headingPaths(blocks);
  const candidates = blocks.flatMap((block, position) =>
    block.type === 'rule' || block.text.trim() === ''
      ? []
      : [{ block, position, section: headingPathText(paths[position] ?? []) }],
  );
  const content = candidates.filter(({ block }) => !isLabel(block));
  const kept = content.length > 0 ? content : candidates;
  const { footnotes: carried, carriedBlocks } = footnoteAttachments(
    blocks,
    kept.map(({ position }) => position),
  );
  const documents = kept
    .filter(({ position }) => !carriedBlocks.has(position))
    .map(({ block, position, section }): IndexDocument => {
      const footnotes = carried[position] ?? '';
      return {
        block_id: block.block_id,
        note_id: note.note_id,
        text: block.text,
        title: note.title,
        ...(aliases.length > 0 && { aliases }),
        folder: note.folder,
        tags: note.tags,
        ...(section !== '' && { section }),
        ...(footnotes !== '' && { footnotes }),
      };
    });
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
 * What each block carries of the footnotes it cites (a definition a paragraph,
 * '' when none), for the blocks at `citing` (those indexed); `carriedBlocks`:
 * the definitions one of them carries, which are then no documents of their own.
 */
export function footnoteAttachments(
  blocks: readonly FootnoteBlock[],
  citing: readonly number[],
): { footnotes: string[]; carriedBlocks: Set<number> } {
  const footnotes = blocks.map(() => '');
  const carriedBlocks = new Set<number>();
  // Most notes have no footnotes: they are not scanned block by block.
  if (!blocks.some((block) => block.text.includes('[^'))) return { footnotes, carriedBlocks };
  const { cites } = footnoteLinks(blocks);
  for (const position of citing) {
    const cited = cites[position] ?? [];
    if (cited.length === 0) continue;
    for (const definition of cited) carriedBlocks.add(definition);
    footnotes[position] = footnotesText(cited.map((definition) => blocks[definition]?.text ?? ''));
  }
  return { footnotes, carriedBlocks };
}

/** The definitions a block cites, a paragraph each, cut to MAX_ATTACHED_FOOTNOTE_CHARS in all. */
function footnotesText(definitions: readonly string[]): string {
  const text = definitions
    .map((definition) => definition.trim())
    .filter((definition) => definition !== '')
    .join('\n\n');
  return text.length > MAX_ATTACHED_FOOTNOTE_CHARS ? text.slice(0, MAX_ATTACHED_FOOTNOTE_CHARS) : text;
}

/**
 * What is indexed for a document: its heading path, then its text, then the
 * footnotes it cites ("Scheduling › Round robin: Each process…[^1]\n\n[^1]: …").
 * The full-text terms, the embedding input and the passage "Ask your notes"
 * sends all come from this, so the modes agree on what a block is about (the
 * full-text terms leave out the names `[[links]]` point at: `bodyTerms`);
 * snippets show the block's own text, from the blocks table, with its footnotes.
 */
export function searchedText(document: Pick<IndexDocument, 'text' | 'section' | 'footnotes'>): string {
  const own = document.section === undefined ? document.text : `${document.section}: ${document.text}`;
  return document.footnotes === undefined ? own : `${own}${FOOTNOTES_SEPARATOR}${document.footnotes}`;
}

/**
 * The footnote definitions at the end of a searched text, '' when none. Only
 * prose blocks carry footnotes, and none of their own text holds a blank line
 * followed by `[^` at the start of a line (that would be a block of its own),
 * so the first such place is where the footnotes begin. `blockType`: a code,
 * math or HTML block may hold that text and never carries footnotes.
 */
export function attachedFootnotes(searched: string, blockType: string): string {
  if (!FOOTNOTE_CARRIERS.has(blockType)) return '';
  const at = searched.indexOf(`${FOOTNOTES_SEPARATOR}[^`);
  return at === -1 ? '' : searched.slice(at + FOOTNOTES_SEPARATOR.length);
}

const FOOTNOTE_CARRIERS: ReadonlySet<string> = new Set(['paragraph', 'list', 'quote', 'table']);

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
  const [title_terms, title_tf] = encodedTerms(tokenize(namesText(title, aliases)));
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
      return [document.block_id, text, ...encodedTerms(bodyTerms(text))];
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
function encodedTerms(terms: readonly string[]): [string, number[]] {
  const counts = new Map<string, number>();
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  let repeated = false;
  for (const count of counts.values()) if (count !== 1) repeated = true;
  return [[...counts.keys()].join(' '), repeated ? [...counts.values()] : []];
}

import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { parseBlocks } from '../../core/blocks';
import type { FullTextDocument } from '../full-text-index';
import { footnoteAttachments, searchedText } from '../index-documents';

/**
 * The evaluation corpus: notes in Chinese and English, and queries
 * that each name the one block that answers them. Blocks come from the app's
 * own `parseBlocks`, and a block id is `<note_id>#<index>` so the expected
 * block of a query can be written down without running the id derivation.
 */
const noteSchema = z.object({
  note_id: z.string().min(1),
  lang: z.enum(['zh', 'en']),
  title: z.string(),
  folder: z.string(),
  tags: z.array(z.string()),
  /** Front matter `aliases:`, searched with the title. */
  aliases: z.array(z.string()).optional(),
  body: z.string().min(1),
});
const querySchema = z.object({
  case_id: z.string().min(1),
  query: z.string().min(1),
  lang: z.enum(['zh', 'en', 'mixed']),
  /** keyword: shares the answer's words; paraphrase: asks in other words. */
  kind: z.enum(['keyword', 'paraphrase']),
  expected_note_id: z.string().min(1),
  expected_block_index: z.number().int().min(0),
  /** What the query exercises beyond plain text: a note's alias, a `#tag` filter, a footnote's words. */
  feature: z.enum(['alias', 'tag', 'footnote']).optional(),
});
export type CorpusNote = z.infer<typeof noteSchema>;
export type CorpusQuery = z.infer<typeof querySchema>;

function readJson(name: string): unknown {
  return JSON.parse(readFileSync(new URL(name, import.meta.url), 'utf8'));
}

export function loadCorpus(): CorpusNote[] {
  return z.object({ version: z.literal(1), notes: z.array(noteSchema) }).parse(readJson('./corpus.json')).notes;
}

export function loadQueries(): CorpusQuery[] {
  return z.object({ version: z.literal(1), queries: z.array(querySchema) }).parse(readJson('./queries.json'))
    .queries;
}

export function blockId(noteId: string, index: number): string {
  return `${noteId}#${index}`;
}

/**
 * The note's blocks as the indexes take them: a block that cites footnotes
 * carries them and a carried definition is no document (as `documentsOf` in
 * index-documents.ts); aliases are searched with the title.
 */
export function documentsOf(note: CorpusNote): FullTextDocument[] {
  const blocks = parseBlocks(note.body);
  const { footnotes, carriedBlocks } = footnoteAttachments(
    blocks,
    blocks.map((_, index) => index),
  );
  return blocks.flatMap((block, index) =>
    carriedBlocks.has(index)
      ? []
      : [
          {
            block_id: blockId(note.note_id, index),
            note_id: note.note_id,
            text: searchedText({ text: block.text, ...(footnotes[index] ? { footnotes: footnotes[index] } : {}) }),
            title: note.title,
            ...(note.aliases && note.aliases.length > 0 ? { aliases: note.aliases } : {}),
            folder: note.folder,
            tags: note.tags,
          },
        ],
  );
}

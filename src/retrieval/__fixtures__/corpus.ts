import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { parseBlocks } from '../../core/blocks';
import type { FullTextDocument } from '../full-text-index';

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

/** The note's blocks as the indexes take them. */
export function documentsOf(note: CorpusNote): FullTextDocument[] {
  return parseBlocks(note.body).map((block, index) => ({
    block_id: blockId(note.note_id, index),
    note_id: note.note_id,
    text: block.text,
    title: note.title,
    folder: note.folder,
    tags: note.tags,
  }));
}

// The blocks and queries the search benchmarks share: the evaluation corpus
// replicated to any size with seeded variations, and a plain MiniSearch over
// them with our tokenizer.
import { create, insertMultiple, type AnyOrama } from '@orama/orama';
import MiniSearch from 'minisearch';
import { TITLE_BOOST, tokenize, type FullTextDocument } from '../src/retrieval';
import { documentsOf, loadCorpus, loadQueries } from '../src/retrieval/__fixtures__/corpus';

export interface BenchCorpus {
  /** corpus.json's blocks, once. */
  base: FullTextDocument[];
  /** queries.json's queries. */
  queries: string[];
  /** Every term of the corpus, sorted: the words added to the copies. */
  vocabulary: string[];
}

export function benchCorpus(): BenchCorpus {
  const base = loadCorpus().flatMap(documentsOf);
  return {
    base,
    queries: loadQueries().map((query) => query.query),
    vocabulary: [...new Set(base.flatMap((document) => tokenize(document.text)))].sort(),
  };
}

/** Park–Miller: the same variations on every run and machine. */
export function lcg(seed: number): () => number {
  let state = seed % 2147483647 || 1;
  return () => (state = (state * 48271) % 2147483647);
}

/**
 * `count` blocks: the corpus once as is, then copies whose note ids are new and
 * whose text gains a copy tag and two terms of the corpus vocabulary drawn by a
 * seeded generator, so document frequencies and vectors differ between copies.
 */
export function replicate(corpus: BenchCorpus, count: number): FullTextDocument[] {
  const { base, vocabulary } = corpus;
  const next = lcg(20240601);
  const documents: FullTextDocument[] = [];
  for (let i = 0; i < count; i++) {
    const source = base[i % base.length]!;
    const copy = Math.floor(i / base.length);
    if (copy === 0) {
      documents.push(source);
      continue;
    }
    const note_id = `${source.note_id}~${copy}`;
    const extra = `${vocabulary[next() % vocabulary.length]} ${vocabulary[next() % vocabulary.length]}`;
    documents.push({
      ...source,
      note_id,
      block_id: `${note_id}#${source.block_id.slice(source.block_id.lastIndexOf('#') + 1)}`,
      text: `${source.text} v${copy} ${extra}`,
    });
  }
  return documents;
}

/**
 * A plain MiniSearch over the blocks, used directly: body and title fields with
 * the same title boost, and our tokenizer (MiniSearch's own splits on spaces and
 * punctuation, which finds nothing in Chinese text) with terms taken as they
 * come, OR of the terms. Its ranking is its own BM25+, so results may differ.
 */
export function miniSearchOf(documents: readonly FullTextDocument[]): MiniSearch<FullTextDocument> {
  const index = new MiniSearch<FullTextDocument>({
    idField: 'block_id',
    fields: ['text', 'title'],
    storeFields: [],
    tokenize: (text) => tokenize(text),
    processTerm: (term) => term,
    searchOptions: { boost: { title: TITLE_BOOST }, combineWith: 'OR' },
  });
  index.addAll(documents as FullTextDocument[]);
  return index;
}

/** Orama over the blocks: the same fields and tokenizer as MiniSearch's. */
export async function oramaOf(documents: readonly FullTextDocument[], batch = 1000): Promise<AnyOrama> {
  const db = create({
    schema: { text: 'string', title: 'string' } as const,
    components: {
      tokenizer: {
        language: 'english',
        normalizationCache: new Map(),
        tokenize: (raw: string) => tokenize(raw),
      },
    },
  });
  await insertMultiple(
    db,
    documents.map((document) => ({
      id: document.block_id,
      text: document.text,
      title: document.title ?? '',
    })),
    batch,
  );
  return db;
}

export { percentile } from './figures';

// Retrieval: the evaluation corpus replicated to 1k / 10k / 50k blocks
// (times BENCH_SCALE). Per size: hybrid query latency against the full-text-only
// query, BM25 through the inverted index against a brute-force scan of every
// block's terms with the same formula, and indexing throughput against
// tokenizing alone; full-text query and index time against a plain MiniSearch
// over the same blocks.
import type MiniSearch from 'minisearch';
import { performance } from 'node:perf_hooks';
import {
  BM25_B,
  BM25_K1,
  DEFAULT_RETRIEVAL_PROFILE,
  FullTextIndex,
  HashEmbedder,
  TITLE_BOOST,
  VectorIndex,
  analyze,
  hybridSearch,
  planQuery,
  planTerms,
  tokenize,
  type FullTextDocument,
} from '../src/retrieval';
import type { BenchResult } from './harness';
import { benchCorpus, miniSearchOf, percentile, replicate } from './search-corpus';

const SIZES = [1_000, 10_000, 50_000];
/** Queries timed per size; the 50k scans are the slow part of the whole group. */
const MAX_QUERIES = 60;
const EMBED_BATCH = 64;
const profile = DEFAULT_RETRIEVAL_PROFILE;

/** One field (body or title) of every block: term ids and counts, block after block (CSR). */
interface FieldTerms {
  offsets: Int32Array;
  terms: Int32Array;
  tf: Int32Array;
  length: Float64Array;
  total: number;
}

interface TermSets {
  ids: string[];
  vocabulary: Map<string, number>;
  body: FieldTerms;
  title: FieldTerms;
}

class FieldBuilder {
  readonly offsets = [0];
  readonly terms: number[] = [];
  readonly tf: number[] = [];
  readonly length: number[] = [];

  add(tokens: readonly string[], vocabulary: Map<string, number>): void {
    const counts = new Map<number, number>();
    for (const token of tokens) {
      let id = vocabulary.get(token);
      if (id === undefined) vocabulary.set(token, (id = vocabulary.size));
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    for (const [id, count] of counts) {
      this.terms.push(id);
      this.tf.push(count);
    }
    this.offsets.push(this.terms.length);
    this.length.push(tokens.length);
  }

  build(): FieldTerms {
    return {
      offsets: Int32Array.from(this.offsets),
      terms: Int32Array.from(this.terms),
      tf: Int32Array.from(this.tf),
      length: Float64Array.from(this.length),
      total: this.length.reduce((a, b) => a + b, 0),
    };
  }
}

/** The baseline "index": tokenize each block and count its terms (interned), nothing else. */
function tokenizeOnly(documents: readonly FullTextDocument[]): TermSets {
  const vocabulary = new Map<string, number>();
  const body = new FieldBuilder();
  const title = new FieldBuilder();
  for (const document of documents) {
    body.add(tokenize(document.text), vocabulary);
    title.add(tokenize(document.title ?? ''), vocabulary);
  }
  return { ids: documents.map((d) => d.block_id), vocabulary, body: body.build(), title: title.build() };
}

/**
 * Brute-force BM25: one pass over every block's term list (body, then title)
 * picks up the query terms and their document frequencies, then the blocks
 * that satisfy the query's plan (query-plan.ts) are scored with
 * FullTextIndex's formula, terms summed in the plan's order.
 */
function bruteForceSearch(sets: TermSets, query: string, limit: number): string[] {
  const plan = planQuery(analyze(query));
  const terms = planTerms(plan);
  const slotOf = new Map(terms.map((term, q) => [term, q]));
  const count = sets.ids.length;
  if (terms.length === 0 || count === 0) return [];
  const width = terms.length;
  const slot = new Int32Array(sets.vocabulary.size).fill(-1);
  terms.forEach((term, q) => {
    const id = sets.vocabulary.get(term);
    if (id !== undefined) slot[id] = q;
  });
  const fieldList = [sets.body, sets.title];
  const matched: number[] = [];
  const tfs: number[] = []; // per matched block: body tf per query term, then title tf per query term
  const df = new Float64Array(width * 2);
  for (let doc = 0; doc < count; doc++) {
    let row = -1;
    for (let field = 0; field < 2; field++) {
      const fields = fieldList[field]!;
      for (let at = fields.offsets[doc]!; at < fields.offsets[doc + 1]!; at++) {
        const q = slot[fields.terms[at]!]!;
        if (q === -1) continue;
        if (row === -1) {
          row = tfs.length;
          matched.push(doc);
          for (let i = 0; i < width * 2; i++) tfs.push(0);
        }
        tfs[row + field * width + q] = fields.tf[at]!;
        df[field * width + q]!++;
      }
    }
  }
  const idf = Array.from(df, (frequency) => Math.log(1 + (count - frequency + 0.5) / (frequency + 0.5)));
  const holds = (m: number, q: number): boolean =>
    tfs[m * width * 2 + q]! > 0 || tfs[m * width * 2 + width + q]! > 0;
  const satisfies = (m: number): boolean =>
    plan.clauses.some(
      (clause) => clause.terms.filter((term) => holds(m, slotOf.get(term)!)).length >= clause.required,
    );
  const ranked = matched.flatMap((doc, m) => {
    if (!satisfies(m)) return [];
    let score = 0;
    for (let field = 0; field < 2; field++) {
      const fields = fieldList[field]!;
      if (fields.total === 0) continue;
      const boost = field === 0 ? 1 : TITLE_BOOST;
      const norm = BM25_K1 * (1 - BM25_B + (BM25_B * fields.length[doc]!) / (fields.total / count || 1));
      for (let q = 0; q < width; q++) {
        const tf = tfs[m * width * 2 + field * width + q]!;
        if (tf > 0) score += (boost * idf[field * width + q]! * (tf * (BM25_K1 + 1))) / (tf + norm);
      }
    }
    return [{ id: sets.ids[doc]!, score }];
  });
  ranked.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return ranked.slice(0, limit).map((item) => item.id);
}

async function buildIndexes(documents: readonly FullTextDocument[], embedder: HashEmbedder) {
  const fullText = new FullTextIndex();
  const vectors = new VectorIndex(embedder.info);
  for (let i = 0; i < documents.length; i += EMBED_BATCH) {
    const batch = documents.slice(i, i + EMBED_BATCH);
    for (const document of batch) fullText.add(document);
    vectors.upsert(batch, await embedder.embed(batch.map((d) => d.text)), embedder.info);
  }
  return { fullText, vectors };
}

function miniSearchQuery(index: MiniSearch<FullTextDocument>, query: string, limit: number): string[] {
  return index
    .search(query)
    .slice(0, limit)
    .map((result) => String(result.id));
}

const row = (name: string, baseline: string, ms: number, baselineMs: number, note?: string): BenchResult => ({
  name,
  baseline,
  ms,
  baselineMs,
  ratio: ms / baselineMs,
  ...(note !== undefined && { note }),
});

export async function retrievalBenchmarks(scale: number): Promise<BenchResult[]> {
  const corpus = benchCorpus();
  const { base, queries: allQueries } = corpus;
  const step = Math.max(1, Math.ceil(allQueries.length / MAX_QUERIES));
  const queries = allQueries.filter((_, i) => i % step === 0);
  const sizes = SIZES.map((size) => Math.max(100, Math.round(size * scale)));
  const embedder = new HashEmbedder();
  console.log(
    `Retrieval: corpus.json (${base.length} blocks) replicated with seeded variations to ${sizes.join(' / ')} blocks; ` +
      `${queries.length} of ${allQueries.length} queries.json queries per size, profile ${profile.profile_id} (fts_recall ${profile.fts_recall}, vector_recall ${profile.vector_recall}), embedder hash-v1. ` +
      'The full-text-only query is hybridSearch mode fts (FullTextIndex BM25, top fts_recall, with highlights); it is the baseline of the hybrid rows ' +
      'and is itself compared with a brute-force BM25 (same tokenizer, constants and title boost, one scan of every block’s pre-tokenized term list per query, no highlights; ' +
      'rankings checked equal on every query). Indexing (timed once per size, fresh index, after a warm-up) is compared with tokenize + term counts only. ' +
      'MiniSearch 7.2.0 is used directly over the same blocks (fields text + title, the same title boost, our tokenizer since its own finds no Chinese words, OR of the terms, top fts_recall); ' +
      'its BM25+ ranks differently, so the note gives the overlap of the two top-20 lists.',
  );

  // Warm the tokenizer, Intl.Segmenter and both index paths before anything is timed.
  const warm = replicate(corpus, Math.min(500, sizes[0]!));
  tokenizeOnly(warm);
  const warmed = await buildIndexes(warm, embedder);
  for (const query of queries.slice(0, 10)) {
    await hybridSearch({ query, profile, fullText: warmed.fullText, vectors: warmed.vectors, embedder });
  }

  const results: BenchResult[] = [];
  for (const size of sizes) {
    const documents = replicate(corpus, size);

    let start = performance.now();
    const sets = tokenizeOnly(documents);
    const tokenizeMs = performance.now() - start;
    start = performance.now();
    const { fullText, vectors } = await buildIndexes(documents, embedder);
    const indexMs = performance.now() - start;
    start = performance.now();
    const fullTextOnly = new FullTextIndex();
    for (const document of documents) fullTextOnly.add(document);
    const fullTextIndexMs = performance.now() - start;
    start = performance.now();
    const mini = miniSearchOf(documents);
    const miniIndexMs = performance.now() - start;
    const rate = (ms: number) => Math.round(size / (ms / 1000)).toLocaleString('en-US');

    // A few untimed queries first, so the build's garbage and cold caches do not land on the first timings.
    for (const query of queries.slice(0, 5)) {
      await hybridSearch({ query, profile, fullText, vectors, embedder });
      bruteForceSearch(sets, query, profile.fts_recall);
      miniSearchQuery(mini, query, profile.fts_recall);
    }
    const hybrid: number[] = [];
    const ftsOnly: number[] = [];
    const brute: number[] = [];
    const miniSearch: number[] = [];
    let overlap = 0;
    for (const query of queries) {
      let t = performance.now();
      await hybridSearch({ query, profile, fullText, vectors, embedder });
      hybrid.push(performance.now() - t);
      t = performance.now();
      const ours = await hybridSearch({ query, mode: 'fts', profile, fullText, limit: profile.fts_recall });
      ftsOnly.push(performance.now() - t);
      t = performance.now();
      const theirs = bruteForceSearch(sets, query, profile.fts_recall);
      brute.push(performance.now() - t);
      // Same formula, same ranking: a brute force that disagreed would be measuring something else.
      if (ours.hits.map((hit) => hit.block_id).join() !== theirs.join()) {
        throw new Error(`brute-force BM25 disagrees with FullTextIndex on "${query}"`);
      }
      t = performance.now();
      const mini20 = miniSearchQuery(mini, query, profile.fts_recall);
      miniSearch.push(performance.now() - t);
      const ourIds = new Set(theirs);
      overlap +=
        mini20.length === 0
          ? 1
          : mini20.filter((id) => ourIds.has(id)).length / Math.max(mini20.length, ourIds.size);
    }

    const label = `${size.toLocaleString('en-US')} blocks`;
    results.push(
      row(
        `hybrid query p50, ${label}`,
        'full-text-only query p50',
        percentile(hybrid, 50),
        percentile(ftsOnly, 50),
      ),
      row(
        `hybrid query p95, ${label}`,
        'full-text-only query p95',
        percentile(hybrid, 95),
        percentile(ftsOnly, 95),
      ),
      row(
        `full-text query p50, ${label}`,
        'brute-force BM25 scan p50',
        percentile(ftsOnly, 50),
        percentile(brute, 50),
        `p95 ${percentile(ftsOnly, 95).toFixed(2)} vs ${percentile(brute, 95).toFixed(2)} ms`,
      ),
      row(
        `full-text query p50 vs MiniSearch, ${label}`,
        'MiniSearch query p50',
        percentile(ftsOnly, 50),
        percentile(miniSearch, 50),
        `p95 ${percentile(ftsOnly, 95).toFixed(2)} vs ${percentile(miniSearch, 95).toFixed(2)} ms; top-20 overlap ${((overlap / queries.length) * 100).toFixed(0)}%`,
      ),
      row(
        `full-text index ${label} vs MiniSearch`,
        'MiniSearch addAll',
        fullTextIndexMs,
        miniIndexMs,
        `${rate(fullTextIndexMs)} blocks/s vs ${rate(miniIndexMs)} blocks/s`,
      ),
      row(
        `index ${label} (FTS + hash-v1 + vectors)`,
        'tokenize + term counts',
        indexMs,
        tokenizeMs,
        `${rate(indexMs)} blocks/s vs ${rate(tokenizeMs)} blocks/s`,
      ),
    );
  }
  return results;
}

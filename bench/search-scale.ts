// Search at scale, each case printed as soon as it is measured:
// - full-text query latency of FullTextIndex against MiniSearch and Orama over
//   the same blocks (1k / 10k / 50k, times BENCH_SCALE), all three with our
//   tokenizer, so the ratios compare the engines and not the word splitting;
// - hybrid query p95 at the largest size against the 25 ms goal, and its vector
//   search against a row-by-row scan of every float (the results must be equal);
// - dense 256-d vectors (a downloaded model's kind: every dimension used), the
//   exact float scan (before) and the int8 scan + float re-rank (after) against
//   the row scan, with recall@10 / @20 of the latter against the exact top 20,
//   memory per block, and hybrid p95 with dense vectors before and after;
// - memory: what each engine keeps per block and its peak while indexing the
//   largest size, each engine in a child process of its own;
// - a notebook of 10,000 notes (50,000 blocks) in fake-indexeddb through the
//   app's core: the first build, a restart loading the stored index, one edit
//   re-indexed and persisted (against re-saving the whole index, as before),
//   and search as you type: every prefix of typed words, as the UI asks
//   (fts, prefix, grouped by note, 20 notes), against MiniSearch and Orama
//   prefix queries over the same blocks.

import 'fake-indexeddb/auto';
import { search as oramaSearch, type AnyOrama } from '@orama/orama';
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { NotesAgentDatabase } from '../src/db';
import {
  DEFAULT_RETRIEVAL_PROFILE,
  FullTextIndex,
  HashEmbedder,
  TITLE_BOOST,
  type Embedder,
  type EmbeddingModelInfo,
  VectorIndex,
  calibrateIndex,
  hybridSearch,
  type FullTextDocument,
  type VectorHit,
} from '../src/retrieval';
import { createCoreApi } from '../src/services/core-api';
import { notebookDrafts, notebookWords, writeNotebook } from './bench-notebook';
import { fastestPerItem, row, timed } from './figures';
import { formatMs, type BenchResult } from './harness';
import { MEMORY_ENGINES, type MemoryFigures } from './search-memory-child';
import { benchCorpus, lcg, miniSearchOf, oramaOf, percentile, replicate } from './search-corpus';

const SIZES = [1_000, 10_000, 50_000];
const HYBRID_GOAL_MS = 25;
const EDIT_GOAL_MS = 50;
const LIMIT = 20;
const profile = DEFAULT_RETRIEVAL_PROFILE;

async function oramaQuery(db: AnyOrama, term: string, exact: boolean): Promise<number> {
  const result = await oramaSearch(db, {
    term,
    properties: ['text', 'title'],
    boost: { title: TITLE_BOOST },
    limit: LIMIT,
    exact,
    threshold: 1,
  });
  return result.hits.length;
}

/** Each query timed once per engine, the engines interleaved so machine noise hits all of them. */
async function queryLatencies(
  queries: readonly string[],
  engines: Record<string, (query: string) => unknown>,
): Promise<Record<string, number[]>> {
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(engines).map((name) => [name, []]));
  for (const query of queries.slice(0, 5)) for (const run of Object.values(engines)) await run(query);
  for (const query of queries) {
    for (const [name, run] of Object.entries(engines)) {
      const start = performance.now();
      await run(query);
      times[name]!.push(performance.now() - start);
    }
  }
  return times;
}

/** `count` runs of queryLatencies over the same queries with one engine: each run's times in query order. */
async function repeatedLatencies(
  count: number,
  queries: readonly string[],
  engine: (query: string) => unknown,
): Promise<number[][]> {
  const runs: number[][] = [];
  for (let run = 0; run < count; run++) runs.push((await queryLatencies(queries, { engine })).engine!);
  return runs;
}

/**
 * The baseline the vector index must match: every stored vector in one row-major
 * Float32Array, a dot product per row over all its floats, the best k kept.
 */
class RowScan {
  readonly ids: string[] = [];
  readonly notes: string[] = [];
  readonly data: Float32Array;

  constructor(vectors: VectorIndex, noteIds: Iterable<string>) {
    const dimension = vectors.info.dimension;
    this.data = new Float32Array(vectors.size * dimension);
    for (const note of noteIds) {
      const segment = vectors.noteSegment(note);
      if (!segment) continue;
      this.data.set(segment.data, this.ids.length * dimension);
      for (const id of segment.block_ids) {
        this.ids.push(id);
        this.notes.push(note);
      }
    }
  }

  search(vector: Float32Array, k: number): VectorHit[] {
    let norm = 0;
    for (const value of vector) norm += value * value;
    const scale = 1 / Math.sqrt(norm);
    const query = vector.map((value) => value * scale);
    const dimension = query.length;
    const top: Array<{ row: number; score: number }> = [];
    const before = (a: { row: number; score: number }, b: { row: number; score: number }) =>
      a.score !== b.score ? a.score > b.score : this.ids[a.row]! < this.ids[b.row]!;
    for (let row = 0; row < this.ids.length; row++) {
      let dot = 0;
      const base = row * dimension;
      for (let i = 0; i < dimension; i++) dot += this.data[base + i]! * query[i]!;
      const item = { row, score: dot };
      if (top.length === k && !before(item, top[k - 1]!)) continue;
      let at = top.length;
      while (at > 0 && before(item, top[at - 1]!)) at--;
      top.splice(at, 0, item);
      if (top.length > k) top.pop();
    }
    return top.map(({ row, score }) => ({ block_id: this.ids[row]!, note_id: this.notes[row]!, score }));
  }
}

/** Vector search timed against the row scan, with its results checked equal to the scan's on every query. */
async function vectorComparison(
  label: string,
  vectors: VectorIndex,
  noteIds: Iterable<string>,
  queries: readonly Float32Array[],
  results: BenchResult[],
): Promise<void> {
  const scan = new RowScan(vectors, noteIds);
  let same = 0;
  for (const query of queries) {
    const exact = vectors.search(query, LIMIT, undefined, { exact: true });
    if (JSON.stringify(exact) === JSON.stringify(scan.search(query, LIMIT))) same++;
  }
  const byIndex = new Map(queries.map((query, i) => [String(i), query]));
  const times = await queryLatencies([...byIndex.keys()], {
    index: (i) => vectors.search(byIndex.get(i)!, LIMIT, undefined, { exact: true }),
    scan: (i) => scan.search(byIndex.get(i)!, LIMIT),
  });
  results.push(
    row(
      `vector search p95 (${label})`,
      'row scan of every float p95',
      percentile(times.index!, 95),
      percentile(times.scan!, 95),
      `exact: same top ${LIMIT} and scores as the scan on ${same}/${queries.length} queries (recall@${LIMIT} ${(same / queries.length).toFixed(2)}); p50 ${formatMs(percentile(times.index!, 50))} vs ${formatMs(percentile(times.scan!, 50))}`,
    ),
  );
  if (same !== queries.length) throw new Error(`vector search (${label}) differs from the exact scan`);
}

export async function engineComparisons(scale: number, results: BenchResult[]): Promise<void> {
  const corpus = benchCorpus();
  const { queries } = corpus;
  const sizes = SIZES.map((size) => Math.max(100, Math.round(size * scale)));
  console.log(
    `Search at scale: corpus.json replicated to ${sizes.join(' / ')} blocks, ${queries.length} queries.json queries; ` +
      `FullTextIndex vs MiniSearch 7.2.0 vs Orama 3.1.18, all with our tokenizer, top ${LIMIT}, OR of the terms. ` +
      'The ratios rank only, as MiniSearch and Orama do (highlights: false); the "with highlights" rows add the marks of the 20 hits.',
  );
  for (const size of sizes) {
    const documents = replicate(corpus, size);
    const label = `${size.toLocaleString('en-US')} blocks`;
    const [ours, oursMs] = await timed(() => {
      const index = new FullTextIndex();
      for (const document of documents) index.add(document);
      return index;
    });
    const [mini, miniMs] = await timed(() => miniSearchOf(documents));
    const [orama, oramaMs] = await timed(() => oramaOf(documents));
    results.push(row(`index ${label}: FullTextIndex vs MiniSearch`, 'MiniSearch addAll', oursMs, miniMs));
    results.push(row(`index ${label}: FullTextIndex vs Orama`, 'Orama insertMultiple', oursMs, oramaMs));

    const times = await queryLatencies(queries, {
      ours: (query) => ours.search(query, { limit: LIMIT, highlights: false }),
      highlighted: (query) => ours.search(query, { limit: LIMIT }),
      mini: (query) => mini.search(query).slice(0, LIMIT),
      orama: (query) => oramaQuery(orama, query, true),
    });
    for (const [name, baseline] of [
      ['MiniSearch', 'mini'],
      ['Orama', 'orama'],
    ] as const) {
      results.push(
        row(
          `full-text query p50 vs ${name}, ${label}`,
          `${name} p50`,
          percentile(times.ours!, 50),
          percentile(times[baseline]!, 50),
          `p95 ${formatMs(percentile(times.ours!, 95))} vs ${formatMs(percentile(times[baseline]!, 95))}`,
        ),
      );
    }
    results.push(
      row(
        `full-text query p50 with highlights vs MiniSearch, ${label}`,
        'MiniSearch p50',
        percentile(times.highlighted!, 50),
        percentile(times.mini!, 50),
        `p95 ${formatMs(percentile(times.highlighted!, 95))} vs ${formatMs(percentile(times.mini!, 95))}`,
      ),
    );

    if (size === sizes.at(-1)) await hybridBenchmarks(documents, ours, results);
  }
}

/** Hybrid query latency over `documents` (indexed in `fullText`), and vector search against the row scan. */
async function hybridBenchmarks(
  documents: readonly FullTextDocument[],
  fullText: FullTextIndex,
  results: BenchResult[],
): Promise<void> {
  const { queries } = benchCorpus();
  const embedder = new HashEmbedder();
  const size = documents.length;
  const label = `${size.toLocaleString('en-US')} blocks`;
  const vectors = new VectorIndex(embedder.info, size);
  for (let i = 0; i < documents.length; i += 256) {
    const batch = documents.slice(i, i + 256);
    vectors.upsert(batch, await embedder.embed(batch.map((document) => document.text)), embedder.info);
  }
  const runs = await repeatedLatencies(3, queries, (query) =>
    hybridSearch({ query, profile, fullText, vectors, embedder }),
  );
  const first = runs[0]!;
  const p95 = percentile(first, 95);
  results.push(
    row(
      `hybrid query p95, ${label}`,
      `goal`,
      p95,
      HYBRID_GOAL_MS,
      `${p95 <= HYBRID_GOAL_MS ? 'goal met' : 'goal NOT met'}; p50 ${formatMs(percentile(first, 50))}`,
    ),
  );
  // On a shared machine a query the scheduler paused lands in the p95; its fastest of three runs does not.
  const fastest = fastestPerItem(runs);
  const fastestP95 = percentile(fastest, 95);
  results.push(
    row(
      `hybrid query p95, fastest of 3 runs per query, ${label}`,
      `goal`,
      fastestP95,
      HYBRID_GOAL_MS,
      `${fastestP95 <= HYBRID_GOAL_MS ? 'goal met' : 'goal NOT met'}; p50 ${formatMs(percentile(fastest, 50))}`,
    ),
  );
  const noteIds = new Set(documents.map((document) => document.note_id));
  await vectorComparison(`hash-v1, ${label}`, vectors, noteIds, await embedder.embed(queries), results);
  await denseBenchmarks(documents, fullText, noteIds, results);
}

const DENSE_INFO: EmbeddingModelInfo = {
  model_id: 'bench-dense',
  model_version: '1',
  dimension: 256,
  normalization: 'l2',
};

/**
 * hash-v1 turned by a fixed random rotation of its 256 dimensions: every
 * dimension of every vector is used, as a downloaded model's are, while the
 * cosines, and so the neighbours a query has among the blocks, stay those of
 * the text. A stand-in for a real model's vectors (none can be downloaded
 * here) with the structure real text gives, where uniform random vectors have
 * none.
 */
class RotatedHashEmbedder implements Embedder {
  readonly info = DENSE_INFO;
  readonly #hash = new HashEmbedder();
  /** Column j is where dimension j of a hash-v1 vector goes. */
  readonly #columns: Float64Array[];

  constructor(seed: number) {
    const next = lcg(seed);
    const dimension = DENSE_INFO.dimension;
    const gaussian = () => {
      const u = (next() + 1) / 2147483648;
      const v = (next() + 1) / 2147483648;
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    };
    // Gram-Schmidt over Gaussian columns: an orthogonal matrix, so dot products are kept.
    this.#columns = [];
    for (let j = 0; j < dimension; j++) {
      const column = new Float64Array(dimension).map(gaussian);
      for (const done of this.#columns) {
        let dot = 0;
        for (let i = 0; i < dimension; i++) dot += column[i]! * done[i]!;
        for (let i = 0; i < dimension; i++) column[i] = column[i]! - dot * done[i]!;
      }
      let norm = 0;
      for (const value of column) norm += value * value;
      this.#columns.push(column.map((value) => value / Math.sqrt(norm)));
    }
  }

  rotate(sparse: Float32Array): Float32Array {
    const out = new Float64Array(DENSE_INFO.dimension);
    sparse.forEach((value, j) => {
      if (value === 0) return;
      const column = this.#columns[j]!;
      for (let i = 0; i < out.length; i++) out[i] = out[i]! + value * column[i]!;
    });
    return Float32Array.from(out);
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    return (await this.#hash.embed(texts)).map((vector) => this.rotate(vector));
  }
}

/**
 * Dense vectors: the exact float scan (before) and the int8 scan with a float
 * re-rank (after, VectorIndex's path for dense queries) against the row scan,
 * and recall@10 / @20 of the latter against the exact top 20 of the same
 * queries; then hybrid p95 with dense vectors, before and after.
 */
async function denseBenchmarks(
  documents: readonly FullTextDocument[],
  fullText: FullTextIndex,
  noteIds: ReadonlySet<string>,
  results: BenchResult[],
): Promise<void> {
  const { queries } = benchCorpus();
  const size = documents.length;
  const label = `${size.toLocaleString('en-US')} blocks`;
  const embedder = new RotatedHashEmbedder(7);
  const rotated = new VectorIndex(DENSE_INFO, size);
  for (let i = 0; i < documents.length; i += 256) {
    const batch = documents.slice(i, i + 256);
    rotated.upsert(batch, await embedder.embed(batch.map((document) => document.text)), DENSE_INFO);
  }
  const next = lcg(5);
  const uniform = () => new Float32Array(DENSE_INFO.dimension).map(() => (next() % 2001) / 1000 - 1);
  const random = new VectorIndex(DENSE_INFO, size);
  random.upsert(documents, documents.map(uniform), DENSE_INFO);
  const sample = queries.slice(0, 60);
  await denseComparison(
    `dense 256-d, rotated hash-v1, ${label}`,
    rotated,
    noteIds,
    await embedder.embed(sample),
    results,
  );
  await denseComparison(
    `dense 256-d, uniform random, ${label}`,
    random,
    noteIds,
    sample.map(uniform),
    results,
  );

  // Before: the same vectors with the int8 scan switched off.
  const exact = VectorIndex.fromBuffer(rotated.toBuffer(), { quantisedFrom: Infinity });
  // The relevance floor is measured once, as the app's index build does: the probes are not a query's cost.
  await calibrateIndex(rotated, embedder);
  exact.relevanceCalibration = rotated.relevanceCalibration;
  const hybridQueries = queries.slice(0, 120);
  const times = await queryLatencies(hybridQueries, {
    before: (query) => hybridSearch({ query, profile, fullText, vectors: exact, embedder }),
    after: (query) => hybridSearch({ query, profile, fullText, vectors: rotated, embedder }),
  });
  const after = percentile(times.after!, 95);
  results.push(
    row(
      `hybrid query p95 with dense 256-d vectors (int8 scan + re-rank), ${label}`,
      'goal',
      after,
      HYBRID_GOAL_MS,
      `${after <= HYBRID_GOAL_MS ? 'goal met' : 'goal NOT met'}; p50 ${formatMs(percentile(times.after!, 50))}; ` +
        `before (every float scanned): p95 ${formatMs(percentile(times.before!, 95))}, p50 ${formatMs(percentile(times.before!, 50))}`,
    ),
  );
  // As for hash-v1 above: the fastest of three runs per query keeps the scheduler's pauses out.
  const runs = [
    times.after!,
    ...(await repeatedLatencies(2, hybridQueries, (query) =>
      hybridSearch({ query, profile, fullText, vectors: rotated, embedder }),
    )),
  ];
  const fastest = percentile(fastestPerItem(runs), 95);
  results.push(
    row(
      `hybrid query p95 with dense 256-d vectors, fastest of 3 runs per query, ${label}`,
      'goal',
      fastest,
      HYBRID_GOAL_MS,
      fastest <= HYBRID_GOAL_MS ? 'goal met' : 'goal NOT met',
    ),
  );
}

/** The float scan (exact) and the int8 path against the row scan, with the int8 path's recall. */
async function denseComparison(
  label: string,
  vectors: VectorIndex,
  noteIds: Iterable<string>,
  queries: readonly Float32Array[],
  results: BenchResult[],
): Promise<void> {
  const scan = new RowScan(vectors, noteIds);
  // The first dense query builds the int8 codes from the floats.
  const [, buildMs] = await timed(() => vectors.search(queries[0]!, LIMIT));
  let same = 0;
  let exactSame = 0;
  let recall10 = 0;
  let recall20 = 0;
  for (const query of queries) {
    const truth = scan.search(query, LIMIT);
    const found = vectors.search(query, LIMIT);
    const exact = vectors.search(query, LIMIT, undefined, { exact: true });
    if (JSON.stringify(found) === JSON.stringify(truth)) same++;
    if (JSON.stringify(exact) === JSON.stringify(truth)) exactSame++;
    const top10 = new Set(truth.slice(0, 10).map((hit) => hit.block_id));
    const top20 = new Set(truth.map((hit) => hit.block_id));
    recall10 += found.slice(0, 10).filter((hit) => top10.has(hit.block_id)).length / top10.size;
    recall20 += found.filter((hit) => top20.has(hit.block_id)).length / top20.size;
  }
  const byIndex = new Map(queries.map((query, i) => [String(i), query]));
  const times = await queryLatencies([...byIndex.keys()], {
    quantised: (i) => vectors.search(byIndex.get(i)!, LIMIT),
    exact: (i) => vectors.search(byIndex.get(i)!, LIMIT, undefined, { exact: true }),
    scan: (i) => scan.search(byIndex.get(i)!, LIMIT),
  });
  const p50 = (name: string) => formatMs(percentile(times[name]!, 50));
  results.push(
    row(
      `vector search p95 before: every float (${label})`,
      'row scan of every float p95',
      percentile(times.exact!, 95),
      percentile(times.scan!, 95),
      `exact: same top ${LIMIT} and scores as the scan on ${exactSame}/${queries.length} queries; p50 ${p50('exact')} vs ${p50('scan')}`,
    ),
  );
  const memory = vectors.memory();
  const perBlock = (bytes: number) => `${Math.round(bytes / memory.rows).toLocaleString('en-US')} B`;
  results.push(
    row(
      `vector search p95 after: int8 scan + float re-rank (${label})`,
      'row scan of every float p95',
      percentile(times.quantised!, 95),
      percentile(times.scan!, 95),
      `recall@10 ${(recall10 / queries.length).toFixed(3)}, recall@20 ${(recall20 / queries.length).toFixed(3)} against the exact scan, ` +
        `same top ${LIMIT} and scores on ${same}/${queries.length}; p50 ${p50('quantised')} vs ${p50('scan')}; ` +
        `memory per block ${perBlock(memory.float_bytes)} floats + ${perBlock(memory.code_bytes)} int8 codes; codes built on the first query in ${formatMs(buildMs)}`,
    ),
  );
  if (exactSame !== queries.length) throw new Error(`vector search (${label}) differs from the exact scan`);
}

/** The hybrid rows alone at the largest size (SEARCH_BENCH_PART=hybrid): no MiniSearch or Orama to build. */
export async function hybridOnly(scale: number, results: BenchResult[]): Promise<void> {
  const documents = replicate(benchCorpus(), Math.max(100, Math.round(SIZES.at(-1)! * scale)));
  const fullText = new FullTextIndex();
  for (const document of documents) fullText.add(document);
  console.log(
    `Hybrid search over ${documents.length.toLocaleString('en-US')} blocks of the replicated corpus:`,
  );
  await hybridBenchmarks(documents, fullText, results);
}

const CHILD = fileURLToPath(new URL('./search-memory-child.ts', import.meta.url));

/** Each engine indexes the largest size in a child process of its own (see search-memory-child.ts). */
export function memoryBenchmarks(scale: number): void {
  const blocks = Math.max(100, Math.round(SIZES.at(-1)! * scale));
  console.log(
    `Memory for indexing ${blocks.toLocaleString('en-US')} blocks (the same blocks, one child process per engine; ` +
      'heap = heapUsed + arrayBuffers after a full collection; the block texts are shared with the corpus and not counted):',
  );
  const figures: MemoryFigures[] = [];
  for (const engine of MEMORY_ENGINES) {
    const child = spawnSync(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', CHILD, engine, String(blocks)],
      { encoding: 'utf8', maxBuffer: 1 << 24 },
    );
    const line = child.stdout.trim().split('\n').at(-1) ?? '';
    if (child.status !== 0 || !line.startsWith('{')) {
      throw new Error(`memory child for ${engine} failed: ${child.stderr.slice(-2000)}`);
    }
    const measured = JSON.parse(line) as MemoryFigures;
    figures.push(measured);
    const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
    console.log(
      `  ${engine}: ${Math.round(measured.retained / blocks).toLocaleString('en-US')} bytes per block kept (${mb(measured.retained)}), ` +
        `peak heap while indexing ${mb(measured.peak)}, process peak RSS ${mb(measured.max_rss)}`,
    );
  }
  const ours = figures.find((figure) => figure.engine === 'FullTextIndex')!;
  for (const other of figures.filter(
    (figure) => figure.engine === 'MiniSearch' || figure.engine === 'Orama',
  )) {
    console.log(
      `  FullTextIndex vs ${other.engine}: ${(ours.retained / other.retained).toFixed(2)}× the memory kept, ` +
        `${(ours.peak / other.peak).toFixed(2)}× the peak heap`,
    );
  }
}

export async function notebookBenchmarks(scale: number, results: BenchResult[]): Promise<void> {
  const count = Math.max(200, Math.round(10_000 * scale));
  const words = notebookWords();
  const name = `bench-search-scale-${process.pid}`;
  const db = new NotesAgentDatabase(name);
  const drafts = notebookDrafts(count, words);
  const { repository, insertMs, blocks } = await writeNotebook(db, drafts);
  console.log(
    `Notebook: ${count.toLocaleString('en-US')} notes, ${blocks.toLocaleString('en-US')} blocks in fake-indexeddb (written in ${formatMs(insertMs)}), through the core API, hash-v1 vectors.`,
  );

  const embedder = new HashEmbedder();
  const first = createCoreApi(db, { embedder });
  const [, buildMs] = await timed(async () => {
    await first.start();
    await first.idle();
  });
  console.log(`  first build (rebuild job, full text + vectors, stored per note): ${formatMs(buildMs)}`);

  // One edit: the note and its blocks written, then the index updated and persisted (idle flushes at once).
  const notes = (await first.api.notes.list({ limit: 50 })).items;
  const editMs: number[] = [];
  for (let i = 0; i < 20; i++) {
    const note = notes[i % notes.length]!;
    await first.api.notes.update({
      note_id: note.note_id,
      body: `${drafts[i]!.body}\n\nedit ${i} ${words[i]}`,
    });
    const [, ms] = await timed(() => first.idle());
    editMs.push(ms);
  }
  // Before, every save wrote the whole index: its snapshot and vector buffer, serialised and put.
  const view = await first.searchIndexer.view();
  const scratch = new NotesAgentDatabase(`${name}-whole`);
  const wholeMs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const [, ms] = await timed(() =>
      scratch.search_index.put({
        key: 'full_text',
        snapshot: view.fullText.toJSON(),
        block_count: view.fullText.size,
      }),
    );
    const [, vectorMs] = await timed(() =>
      scratch.search_index.put({
        key: 'vectors',
        model: { ...view.vectors!.info },
        buffer: view.vectors!.toBuffer(),
        block_count: view.vectors!.size,
      }),
    );
    wholeMs.push(ms + vectorMs);
  }
  await scratch.delete();
  const editP95 = percentile(editMs, 95);
  results.push(
    row(
      `one edited note → index updated + persisted p95, ${blocks.toLocaleString('en-US')} blocks`,
      'whole index re-saved p50',
      editP95,
      percentile(wholeMs, 50),
      `${editP95 <= EDIT_GOAL_MS ? 'goal ≤ 50 ms met' : 'goal ≤ 50 ms NOT met'}; p50 ${formatMs(percentile(editMs, 50))}`,
    ),
  );
  first.dispose();

  // A restart: the stored rows loaded, nothing re-indexed.
  const second = createCoreApi(db, { embedder: new HashEmbedder() });
  const [, loadMs] = await timed(async () => {
    await second.start();
    await second.api.search.search({ query: words[0]! });
  });
  results.push(
    row(
      `start: load the stored index + first query, ${blocks.toLocaleString('en-US')} blocks`,
      'first build',
      loadMs,
      buildMs,
    ),
  );

  // Search as you type: every prefix of each word, as the UI sends it.
  const typed = Array.from({ length: 12 }, (_, i) => words[(i * 7919) % words.length]!);
  const keystrokes = typed.flatMap((word) =>
    Array.from({ length: word.length }, (_, i) => word.slice(0, i + 1)),
  );
  const live = await second.searchIndexer.view();
  const all: FullTextDocument[] = [];
  for (const note of await repository.liveNoteIds()) {
    for (const blockId of live.fullText.blocksOf(note)) all.push(live.fullText.get(blockId)!);
  }
  const mini = miniSearchOf(all);
  const orama = await oramaOf(all);
  const times = await queryLatencies(keystrokes, {
    service: (query) =>
      second.api.search.search({
        query,
        mode: 'fts',
        fallback: 'fts',
        limit: LIMIT,
        prefix: true,
        group_by: 'note',
      }),
    index: (query) => live.fullText.search(query, { limit: LIMIT, prefix: true }),
    mini: (query) =>
      mini
        .search(query, { prefix: (_term, i, terms) => i === terms.length - 1 && query.length >= 2 })
        .slice(0, LIMIT),
    orama: (query) => oramaQuery(orama, query, false),
  });
  const label = `${count.toLocaleString('en-US')} notes`;
  results.push(
    row(
      `search as you type p95 (SearchService, grouped), ${label}`,
      'MiniSearch prefix p95',
      percentile(times.service!, 95),
      percentile(times.mini!, 95),
      `${keystrokes.length} keystrokes; p50 ${formatMs(percentile(times.service!, 50))}`,
    ),
    row(
      `search as you type p95 (FullTextIndex prefix), ${label}`,
      'MiniSearch prefix p95',
      percentile(times.index!, 95),
      percentile(times.mini!, 95),
      `p50 ${formatMs(percentile(times.index!, 50))} vs ${formatMs(percentile(times.mini!, 50))}`,
    ),
    row(
      `search as you type p95 (FullTextIndex prefix) vs Orama, ${label}`,
      'Orama prefix p95',
      percentile(times.index!, 95),
      percentile(times.orama!, 95),
      `p50 ${formatMs(percentile(times.index!, 50))} vs ${formatMs(percentile(times.orama!, 50))}`,
    ),
  );
  second.dispose();
  await second.idle();
  db.close();
  await new NotesAgentDatabase(name).delete();
}

export async function searchScaleBenchmarks(scale: number): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  await engineComparisons(scale, results);
  memoryBenchmarks(scale);
  await notebookBenchmarks(scale, results);
  return results;
}

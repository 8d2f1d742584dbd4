// A start's load of a stored search index in Node over fake-indexeddb: a
// notebook of 10,000 notes of five blocks (50,000 blocks at scale 1) is built
// and stored once through the app's SearchIndexer, then started again from
// what is stored, and each start's time (the stored rows read, the full-text
// and vector indexes filled, to a complete view) is printed beside building
// the same blocks' indexes in memory (every block tokenized, hash-v1 vectors
// embedded: what a start without a stored index would pay before any reading)
// and beside MiniSearch 7.2.0 `addAll` of the same blocks with our tokenizer
// (full text only). The load average is printed with the figures: on a shared
// machine they are indicative only. `npx tsx bench/index-load.ts` runs it
// alone (BENCH_SCALE as in `npm run bench`).
import 'fake-indexeddb/auto';
import { availableParallelism, loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { NotesAgentDatabase, NotesRepository } from '../src/db';
import { FullTextIndex, HashEmbedder, VectorIndex, type FullTextDocument } from '../src/retrieval';
import { notebookDrafts, notebookWords, writeNotebook } from './bench-notebook';
import { row, timed } from './figures';
import { formatMs, report, type BenchResult } from './harness';
import { openIndexer } from './index-load-page';
import { miniSearchOf } from './search-corpus';

const RUNS = 3;

/** `1m 5m 15m` load averages, as `uptime` prints them. */
function loadAverage(): string {
  return `load average ${loadavg()
    .map((value) => value.toFixed(2))
    .join(', ')} on ${availableParallelism()} cores`;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** The full-text and vector indexes of `documents` built in memory, as a first build fills them. */
async function buildInMemory(documents: readonly FullTextDocument[]): Promise<number> {
  const embedder = new HashEmbedder();
  const fullText = new FullTextIndex();
  const vectors = new VectorIndex(embedder.info, documents.length);
  for (let start = 0; start < documents.length; start += 500) {
    const batch = documents.slice(start, start + 500);
    for (const document of batch) fullText.add(document);
    vectors.upsert(batch, await embedder.embed(batch.map((document) => document.text)), embedder.info);
  }
  return fullText.size + vectors.size;
}

export async function indexLoadBenchmarks(scale: number): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const count = Math.max(200, Math.round(10_000 * scale));
  const name = `bench-index-load-${process.pid}`;
  const db = new NotesAgentDatabase(name);
  const { blocks } = await writeNotebook(
    db,
    notebookDrafts(count, notebookWords(), '2025-01-01T00:00:00.000Z'),
  );
  const label = `${count.toLocaleString('en-US')} notes, ${blocks.toLocaleString('en-US')} blocks`;
  console.log(`Stored search index load (${label} in fake-indexeddb, hash-v1 vectors), ${loadAverage()}:`);

  const first = openIndexer(db);
  const [, buildMs] = await timed(async () => {
    await first.indexer.start();
    await first.indexer.flush();
    await first.runtime.idle();
  });
  const built = await first.indexer.view();
  const documents: FullTextDocument[] = [];
  for (const noteId of await new NotesRepository(db).liveNoteIds()) {
    for (const blockId of built.fullText.blocksOf(noteId)) documents.push(built.fullText.get(blockId)!);
  }
  first.indexer.dispose();
  console.log(`  first build through the indexer (rebuild job, rows stored in packs): ${formatMs(buildMs)}`);

  const loadMs: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const fresh = new NotesAgentDatabase(name);
    const { indexer, runtime } = openIndexer(fresh);
    const [view, ms] = await timed(async () => {
      await indexer.start();
      return indexer.view();
    });
    const status = await indexer.status();
    if (view.fullText.size !== blocks || status.pending_notes !== 0) {
      throw new Error(
        `the start loaded ${view.fullText.size} of ${blocks} blocks, ${status.pending_notes} notes left to re-index`,
      );
    }
    indexer.dispose();
    await runtime.idle();
    fresh.close();
    loadMs.push(ms);
  }
  const memoryMs: number[] = [];
  const miniMs: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    memoryMs.push((await timed(() => buildInMemory(documents)))[1]);
    miniMs.push((await timed(() => miniSearchOf(documents)))[1]);
  }
  const load = median(loadMs);
  const runs = `median of ${RUNS}: ${loadMs.map(formatMs).join(', ')}; ${loadAverage()}`;
  results.push(
    row(
      `start: stored index loaded (full text + vectors), ${label}`,
      'in-memory build (tokenize + hash-v1)',
      load,
      median(memoryMs),
      runs,
    ),
    row(
      `start: stored index loaded (full text + vectors), ${label}`,
      'MiniSearch addAll (full text only)',
      load,
      median(miniMs),
      `MiniSearch runs ${miniMs.map(formatMs).join(', ')}`,
    ),
  );
  db.close();
  await new NotesAgentDatabase(name).delete();
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const results = await indexLoadBenchmarks(Number(process.env.BENCH_SCALE ?? 1));
  console.log(`\n${report(results)}`);
}

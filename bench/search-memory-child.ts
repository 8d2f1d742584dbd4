// One engine's memory for indexing the bench blocks, in a process of its own so
// no other engine's garbage or retained index is counted:
//   node --expose-gc --import tsx bench/search-memory-child.ts <engine> <blocks>
// Prints one JSON line: bytes retained by the finished index (after a full
// collection), the peak above the start while indexing (sampled every
// SAMPLE_EVERY blocks), and the process's peak resident set. Heap means
// heapUsed + arrayBuffers, so typed-array storage (the vectors) counts too.
import { insertMultiple } from '@orama/orama';
import { FullTextIndex, HashEmbedder, VectorIndex } from '../src/retrieval';
import { benchCorpus, miniSearchOf, oramaOf, replicate } from './search-corpus';

export const MEMORY_ENGINES = [
  'FullTextIndex',
  'FullTextIndex + VectorIndex',
  'MiniSearch',
  'Orama',
] as const;
export type MemoryEngine = (typeof MEMORY_ENGINES)[number];
export interface MemoryFigures {
  engine: MemoryEngine;
  blocks: number;
  retained: number;
  peak: number;
  max_rss: number;
}

const SAMPLE_EVERY = 250;

async function measure(engine: MemoryEngine, count: number): Promise<MemoryFigures> {
  const collect = globalThis.gc;
  if (!collect) throw new Error('run with --expose-gc');
  const documents = replicate(benchCorpus(), count);
  const embedder = new HashEmbedder();
  const heap = () => {
    const usage = process.memoryUsage();
    return usage.heapUsed + usage.arrayBuffers;
  };
  collect();
  collect();
  const start = heap();
  let peak = start;
  const sample = () => {
    peak = Math.max(peak, heap());
  };
  let kept: unknown;
  if (engine === 'MiniSearch') {
    const index = miniSearchOf([]);
    documents.forEach((document, i) => {
      index.add(document);
      if (i % SAMPLE_EVERY === 0) sample();
    });
    kept = index;
  } else if (engine === 'Orama') {
    const db = await oramaOf([]);
    for (let i = 0; i < documents.length; i += SAMPLE_EVERY) {
      await insertMultiple(
        db,
        documents
          .slice(i, i + SAMPLE_EVERY)
          .map((document) => ({ id: document.block_id, text: document.text, title: document.title ?? '' })),
        SAMPLE_EVERY,
      );
      sample();
    }
    kept = db;
  } else {
    const fullText = new FullTextIndex();
    const vectors = engine === 'FullTextIndex' ? undefined : new VectorIndex(embedder.info);
    for (let i = 0; i < documents.length; i += SAMPLE_EVERY) {
      const batch = documents.slice(i, i + SAMPLE_EVERY);
      for (const document of batch) fullText.add(document);
      if (vectors) {
        vectors.upsert(batch, await embedder.embed(batch.map((document) => document.text)), embedder.info);
      }
      sample();
    }
    kept = [fullText, vectors];
  }
  sample();
  collect();
  collect();
  const retained = heap() - start;
  // Read after the measurement, so the index is alive through it.
  if (kept === undefined) throw new Error('nothing indexed');
  return {
    engine,
    blocks: count,
    retained,
    peak: peak - start,
    max_rss: process.resourceUsage().maxRSS * 1024,
  };
}

const [engine, blocks] = process.argv.slice(2);
if (MEMORY_ENGINES.includes(engine as MemoryEngine) && Number(blocks) > 0) {
  console.log(JSON.stringify(await measure(engine as MemoryEngine, Number(blocks))));
}

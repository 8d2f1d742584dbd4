import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockId, documentsOf, loadCorpus, loadQueries } from './__fixtures__/corpus';
import {
  DEFAULT_TINY_VOCABULARY,
  localOnlySource,
  tinyModelSpec,
  vocabularyFromTexts,
  writeTinyEmbeddingModel,
} from './__fixtures__/tiny-model';
import type { Embedder } from './embedder';
import { FullTextIndex } from './full-text-index';
import { HashEmbedder } from './hash-embedder';
import { hybridSearch, SEARCH_MODES, type SearchMode } from './hybrid-search';
import { hitAt, mrr, type RankedCase } from './metrics';
import { calibrateRelevance, nonsenseProbes, type RelevanceCalibration } from './relevance-calibration';
import { DEFAULT_RETRIEVAL_PROFILE } from './retrieval-profile';
import { TransformersEmbedder } from './transformers-embedder';
import { VectorIndex } from './vector-index';

/**
 * The calibrated relevance floor on the evaluation corpus with the generated
 * tiny model, which has no measured floor of its own: nonsense (none of it
 * among the probes) must find nothing in every mode, and the floor must cost
 * the real queries little. hash-v1's calibration is printed beside it for the
 * record; hash-v1 itself keeps its measured floor.
 */
const DEPTH = 10;
const notes = loadCorpus();
const queries = loadQueries();
const documents = notes.flatMap(documentsOf);

/** Not among the probes (asserted below): made-up words, keyboard runs, rare Han characters, mixed. */
const NONSENSE_QUERIES = [
  'qzxv blorft wug',
  'zzkq vrrp',
  'flibber jabberwock snark',
  'xyzzy plugh',
  'asdfgh qwerty zxcvb',
  'glorp',
  'frobnicate wibble',
  'mimsy borogove',
  '鬱龘靐齉',
  '嘰哩咕嚕囉',
  '犇猋骉麤',
  'blorft 翾翀',
];

interface Measured {
  name: string;
  calibration: RelevanceCalibration | undefined;
  /** mode → [hit@1, hit@5, MRR@10] with no floor, then with the calibrated one. */
  metrics: Map<SearchMode, { before: number[]; after: number[] }>;
  /** Real queries whose answer block scores below the floor (vector mode would drop it). */
  answersBelowFloor: number;
  nonsenseHits: Map<SearchMode, number>;
}

let root: string;
const measured: Measured[] = [];

/** Without any floor, as searches ran before: only the profile's score threshold. */
const unfloored = (embedder: Embedder): Embedder => ({
  info: embedder.info,
  relevance_floor: { min_cosine: -1 },
  embed: (texts, options) => embedder.embed(texts, options),
});

async function measure(name: string, passages: Embedder, queryEmbedder: Embedder): Promise<Measured> {
  const fullText = new FullTextIndex();
  documents.forEach((document) => fullText.add(document));
  const vectors = new VectorIndex(passages.info, documents.length);
  vectors.upsert(documents, await passages.embed(documents.map((document) => document.text)), passages.info);
  const calibration = await calibrateRelevance(vectors, queryEmbedder);
  vectors.relevanceCalibration = calibration;

  const run = async (embedder: Embedder, mode: SearchMode): Promise<number[]> => {
    const cases: RankedCase[] = [];
    for (const query of queries) {
      const result = await hybridSearch({
        query: query.query,
        mode,
        profile: DEFAULT_RETRIEVAL_PROFILE,
        fullText,
        vectors,
        embedder,
        limit: DEPTH,
      });
      cases.push({
        expected: [blockId(query.expected_note_id, query.expected_block_index)],
        ranked: result.hits.map((hit) => hit.block_id),
      });
    }
    return [hitAt(cases, 1), hitAt(cases, 5), mrr(cases)];
  };
  const metrics = new Map<SearchMode, { before: number[]; after: number[] }>();
  for (const mode of SEARCH_MODES) {
    metrics.set(mode, {
      before: await run(unfloored(queryEmbedder), mode),
      after: await run(queryEmbedder, mode),
    });
  }

  let answersBelowFloor = 0;
  for (const query of queries) {
    const [vector] = await queryEmbedder.embed([query.query]);
    const answer = blockId(query.expected_note_id, query.expected_block_index);
    const hit = vectors.search(vector!, documents.length).find((candidate) => candidate.block_id === answer);
    if ((hit?.score ?? -1) < (calibration?.min_cosine ?? -1)) answersBelowFloor += 1;
  }

  const nonsenseHits = new Map<SearchMode, number>();
  for (const mode of SEARCH_MODES) {
    let count = 0;
    for (const prefix of [false, true]) {
      for (const query of NONSENSE_QUERIES) {
        const result = await hybridSearch({
          query,
          mode,
          profile: DEFAULT_RETRIEVAL_PROFILE,
          fullText,
          vectors,
          embedder: queryEmbedder,
          prefix,
        });
        count += result.hits.length;
      }
    }
    nonsenseHits.set(mode, count);
  }
  return { name, calibration, metrics, answersBelowFloor, nonsenseHits };
}

async function measureTiny(variant: string, vocabulary: readonly string[]): Promise<void> {
  const modelsPath = join(root, variant);
  const modelId = `notes-agent/tiny-${variant}`;
  await writeTinyEmbeddingModel(modelsPath, modelId, { vocabulary });
  const embedder = await TransformersEmbedder.load({
    model: tinyModelSpec({ model_id: modelId }),
    source: localOnlySource(modelsPath),
    batch_size: 32,
  });
  try {
    measured.push(await measure(`tiny-${variant}`, embedder, embedder.forQueries()));
  } finally {
    await embedder.dispose();
  }
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'notes-agent-floor-eval-'));
  await measureTiny('builtin', DEFAULT_TINY_VOCABULARY);
  await measureTiny('corpus', [
    ...DEFAULT_TINY_VOCABULARY,
    ...vocabularyFromTexts(notes.map((note) => `${note.title}\n${note.body}`)),
  ]);
  // hash-v1's null distribution, for the record (the search below uses its calibration, not its own floor).
  const hash = new HashEmbedder();
  measured.push(
    await measure('hash-v1 (calibrated)', unfloored(hash), { info: hash.info, embed: (t) => hash.embed(t) }),
  );

  const fixed = (value: number | undefined): string => (value ?? Number.NaN).toFixed(3);
  const lines = [
    `Calibrated relevance floor: ${documents.length} blocks, ${queries.length} queries, ${NONSENSE_QUERIES.length} nonsense queries (x2: prefix)`,
  ];
  for (const entry of measured) {
    const c = entry.calibration;
    lines.push(
      `${entry.name}: probe top scores max ${fixed(c?.null_max)} p99 ${fixed(c?.null_p99)} p50 ${fixed(c?.null_p50)} ` +
        `mean ${fixed(c?.null_mean)} std ${fixed(c?.null_std)} → floor ${fixed(c?.min_cosine)}; ` +
        `answers below it ${entry.answersBelowFloor}/${queries.length}; nonsense hits ` +
        SEARCH_MODES.map((mode) => `${mode} ${entry.nonsenseHits.get(mode)}`).join(', '),
    );
    for (const mode of SEARCH_MODES) {
      const row = entry.metrics.get(mode)!;
      lines.push(
        `  ${mode.padEnd(7)} hit@1/hit@5/MRR@10 no floor ${row.before.map((value) => value.toFixed(3)).join('/')}` +
          `  calibrated ${row.after.map((value) => value.toFixed(3)).join('/')}`,
      );
    }
  }
  // eslint-disable-next-line no-console -- the numbers are this test's report
  console.log(`\n${lines.join('\n')}\n`);
}, 300_000); // A hang guard: two tiny models embed the corpus, slower on a loaded machine.

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('the calibrated relevance floor on the evaluation corpus', () => {
  it('was measured with probes that are not the nonsense queries asked here', () => {
    const probes = new Set(nonsenseProbes());
    for (const query of NONSENSE_QUERIES) expect(probes.has(query), query).toBe(false);
  });

  it.each(['tiny-builtin', 'tiny-corpus'])('%s: nonsense queries return nothing in every mode', (name) => {
    const entry = measured.find((candidate) => candidate.name === name)!;
    expect(entry.calibration).toBeDefined();
    for (const mode of SEARCH_MODES) expect(entry.nonsenseHits.get(mode), mode).toBe(0);
  });

  it.each(['tiny-builtin', 'tiny-corpus'])('%s: full text loses nothing, hybrid keeps its hit@5', (name) => {
    const entry = measured.find((candidate) => candidate.name === name)!;
    const fts = entry.metrics.get('fts')!;
    expect(fts.after).toEqual(fts.before);
    const hybrid = entry.metrics.get('hybrid')!;
    expect(hybrid.after[1]).toBeGreaterThanOrEqual(hybrid.before[1]! - 0.0005);
  });
});

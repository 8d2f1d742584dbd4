import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockId, documentsOf, loadCorpus, loadQueries, type CorpusQuery } from './__fixtures__/corpus';
import { hitAt, mrr, type RankedCase } from './metrics';
import {
  DEFAULT_TINY_VOCABULARY,
  localOnlySource,
  tinyModelSpec,
  uniqueTokens,
  vocabularyFromTexts,
  writeTinyEmbeddingModel,
} from './__fixtures__/tiny-model';
import { TransformersEmbedder } from './transformers-embedder';
import { VectorIndex } from './vector-index';

/**
 * Vector retrieval with the generated tiny model, loaded through the app's
 * TransformersEmbedder, over the issue-4 corpus. A bag of hashed characters
 * and words is no sentence encoder, so there is no quality floor here beyond
 * "clearly better than chance"; the numbers are printed for the record. Two
 * variants: the built-in vocabulary, and one grown from the corpus text.
 */
const DEPTH = 10;
const notes = loadCorpus();
const queries = loadQueries();
const documents = notes.flatMap(documentsOf);

interface Row {
  variant: string;
  group: string;
  count: number;
  hit1: number;
  hit5: number;
  mrr: number;
}

const GROUPS: Array<[string, (query: CorpusQuery) => boolean]> = [
  ['all', () => true],
  ['english', (query) => query.lang === 'en'],
  ['chinese only', (query) => query.lang === 'zh'],
  ['mixed', (query) => query.lang === 'mixed'],
];

let root: string;
const rows: Row[] = [];
const timings: string[] = [];

/** A random ranking finds the one right block in the first k with chance k/N. */
const randomHitAt = (k: number): number => k / documents.length;
const randomMrr = (): number => {
  let sum = 0;
  for (let rank = 1; rank <= DEPTH; rank++) sum += 1 / rank;
  return sum / documents.length;
};

async function evaluate(variant: string, vocabulary: readonly string[]): Promise<void> {
  const modelsPath = join(root, variant);
  const modelId = `notes-agent/tiny-${variant}`;
  const written = await writeTinyEmbeddingModel(modelsPath, modelId, { vocabulary });
  const loadStarted = performance.now();
  const embedder = await TransformersEmbedder.load({
    model: tinyModelSpec({ model_id: modelId }),
    source: localOnlySource(modelsPath),
    batch_size: 32,
  });
  const loadMs = performance.now() - loadStarted;
  try {
    const index = new VectorIndex(embedder.info, documents.length);
    const indexStarted = performance.now();
    index.upsert(documents, await embedder.embed(documents.map((document) => document.text)), embedder.info);
    const indexMs = performance.now() - indexStarted;

    const queryEmbedder = embedder.forQueries();
    const latencies: number[] = [];
    const cases: Array<RankedCase & { query: CorpusQuery }> = [];
    for (const query of queries) {
      const started = performance.now();
      const hits = await index.query(queryEmbedder, query.query, DEPTH);
      latencies.push(performance.now() - started);
      cases.push({
        query,
        expected: [blockId(query.expected_note_id, query.expected_block_index)],
        ranked: hits.map((hit) => hit.block_id),
      });
    }
    for (const [group, belongs] of GROUPS) {
      const selected = cases.filter((entry) => belongs(entry.query));
      rows.push({
        variant,
        group,
        count: selected.length,
        hit1: hitAt(selected, 1),
        hit5: hitAt(selected, 5),
        mrr: mrr(selected),
      });
    }
    latencies.sort((a, b) => a - b);
    const p50 = latencies[Math.floor(latencies.length / 2)] ?? 0;
    const modelKb = Object.values(written.bytes).reduce((sum, bytes) => sum + bytes, 0) / 1024;
    timings.push(
      `${variant}: ${uniqueTokens(vocabulary).length} tokens, files ${modelKb.toFixed(0)} KB ` +
        `(onnx ${((written.bytes['onnx/model.onnx'] ?? 0) / 1024).toFixed(0)} KB); load ${loadMs.toFixed(0)} ms; ` +
        `indexing ${documents.length} blocks ${indexMs.toFixed(0)} ms ` +
        `(${((documents.length / indexMs) * 1000).toFixed(0)} blocks/s); query p50 ${p50.toFixed(2)} ms`,
    );
  } finally {
    await embedder.dispose();
  }
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'notes-agent-embed-eval-'));
  await evaluate('builtin', DEFAULT_TINY_VOCABULARY);
  await evaluate('corpus', [
    ...DEFAULT_TINY_VOCABULARY,
    ...vocabularyFromTexts(notes.map((note) => `${note.title}\n${note.body}`)),
  ]);
  const line = (cells: string[]): string => cells.map((cell, i) => cell.padEnd(i === 1 ? 14 : 8)).join(' ');
  const table = [
    line(['tiny', 'queries', 'n', 'hit@1', 'hit@5', 'MRR@10']),
    ...rows.map((row) =>
      line([
        row.variant,
        row.group,
        String(row.count),
        row.hit1.toFixed(3),
        row.hit5.toFixed(3),
        row.mrr.toFixed(3),
      ]),
    ),
    line([
      'random',
      'all',
      String(queries.length),
      randomHitAt(1).toFixed(3),
      randomHitAt(5).toFixed(3),
      randomMrr().toFixed(3),
    ]),
  ].join('\n');
  // eslint-disable-next-line no-console -- the metrics table is this test's report
  console.log(
    `\nTiny-model vector retrieval: ${notes.length} notes, ${documents.length} blocks, ${queries.length} queries\n` +
      `${table}\n${timings.join('\n')}\n`,
  );
}, 120_000);

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('vector retrieval with the generated tiny model', () => {
  it.each(['builtin', 'corpus'])('%s vocabulary ranks far better than chance', (variant) => {
    const all = rows.find((row) => row.variant === variant && row.group === 'all');
    if (!all) throw new Error(`no row for ${variant}`);
    expect(all.hit5).toBeGreaterThan(10 * randomHitAt(5));
    expect(all.mrr).toBeGreaterThan(10 * randomMrr());
    for (const group of ['english', 'chinese only']) {
      const row = rows.find((candidate) => candidate.variant === variant && candidate.group === group);
      expect(row?.hit5, `${variant} / ${group}`).toBeGreaterThan(10 * randomHitAt(5));
    }
  });
});

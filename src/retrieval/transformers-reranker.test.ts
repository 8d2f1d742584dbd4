import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, isAbortError } from '../contracts';
import { FullTextIndex } from './full-text-index';
import { hybridSearch } from './hybrid-search';
import { DEFAULT_RETRIEVAL_PROFILE } from './retrieval-profile';
import {
  localOnlySource,
  tinyCrossEncoderSpec,
  TINY_CROSS_ENCODER_ID,
  writeTinyCrossEncoder,
} from './__fixtures__/tiny-model';
import { TransformersReranker, type TransformersRerankerConfig } from './transformers-reranker';

/**
 * The reranker through the real transformers.js code (tokenizer with pair
 * template, sequence-classification model, onnxruntime-node) on a tiny
 * cross-encoder the test generates: it scores a pair by the cosine of the
 * summed token rows of the query side and of the passage side.
 */

const TINY_RERANKER = tinyCrossEncoderSpec();

let root: string;
let config: TransformersRerankerConfig;
let reranker: TransformersReranker;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'notes-agent-rerank-'));
  await writeTinyCrossEncoder(root);
  config = { model: TINY_RERANKER, source: localOnlySource(root), batch_size: 2 };
  reranker = await TransformersReranker.load(config);
});

afterAll(async () => {
  await reranker.dispose();
  await rm(root, { recursive: true, force: true });
});

const DEADLOCK = 'A deadlock needs a wait cycle between threads.';
const TEA = 'Green tea wants water below boiling.';
const SCHEDULER = 'The scheduler picks the next thread to run.';

describe('TransformersReranker on a generated cross-encoder', () => {
  it('scores query and passage together: the passage that shares the query words wins', async () => {
    const scores = await reranker.score('deadlock wait cycle', [TEA, DEADLOCK, SCHEDULER]);
    expect(scores).toHaveLength(3);
    expect(scores[1]).toBeGreaterThan(scores[0]!);
    expect(scores[1]).toBeGreaterThan(scores[2]!);
    expect(reranker.info.model_id).toBe(TINY_CROSS_ENCODER_ID);
    expect(reranker.info.model_version).toMatch(/^main\.fp32\.[0-9a-f]{16}$/);
    expect(reranker.device).toBe('cpu');
  });

  it('is a pair model: an empty side scores zero, swapping sides keeps the score, batches change nothing', async () => {
    const [empty] = await reranker.score('deadlock', ['']);
    expect(empty).toBeCloseTo(0, 6);
    const [forward] = await reranker.score('deadlock cycle', [DEADLOCK]);
    const [backward] = await reranker.score(DEADLOCK, ['deadlock cycle']);
    expect(forward).toBeCloseTo(backward!, 4);
    // batch_size 2 splits these five into three calls; one at a time gives the same numbers.
    const texts = [TEA, DEADLOCK, SCHEDULER, '死锁需要循环等待。', ''];
    const batched = await reranker.score('死锁 deadlock', texts);
    const single: number[] = [];
    for (const text of texts) single.push(...(await reranker.score('死锁 deadlock', [text])));
    batched.forEach((score, index) => expect(score).toBeCloseTo(single[index]!, 5));
    expect(await reranker.score('anything', [])).toEqual([]);
  });

  it('reorders hybrid search candidates when the profile asks for reranking', async () => {
    const fullText = new FullTextIndex();
    const documents = [
      // Many "thread" words: BM25 ranks it first for the query; the cross-encoder prefers the cycle.
      { block_id: 'b1', note_id: 'n1', text: 'thread thread thread pool sizes' },
      { block_id: 'b2', note_id: 'n2', text: 'a deadlock is a wait cycle of thread locks' },
      { block_id: 'b3', note_id: 'n3', text: TEA },
    ];
    for (const document of documents) fullText.add(document);
    const query = 'thread deadlock wait cycle';
    const plain = await hybridSearch({
      query,
      mode: 'fts',
      profile: DEFAULT_RETRIEVAL_PROFILE,
      fullText,
      reranker,
    });
    expect(plain.reranked).toBe(false);
    const profile = { ...DEFAULT_RETRIEVAL_PROFILE, rerank: true, rerank_candidates: 5 };
    const reranked = await hybridSearch({ query, mode: 'fts', profile, fullText, reranker });
    expect(reranked.reranked).toBe(true);
    const scores = await reranker.score(
      query,
      reranked.hits.map((hit) => documents.find((d) => d.block_id === hit.block_id)!.text),
    );
    expect(reranked.hits.map((hit) => hit.rerank_score)).toEqual(scores);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(reranked.hits[0]?.block_id).toBe('b2');
  });

  it('stops between batches when aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await reranker
      .score('deadlock', [DEADLOCK], { signal: controller.signal })
      .catch((caught: unknown) => caught);
    expect(isAbortError(error)).toBe(true);
    const loading = await TransformersReranker.load(config, { signal: controller.signal }).catch(
      (caught: unknown) => caught,
    );
    expect(isAbortError(loading)).toBe(true);
  });

  it('missing files fail with EMBEDDING_MODEL_UNAVAILABLE, marked as the reranker', async () => {
    const error = await TransformersReranker.load({
      ...config,
      source: localOnlySource(join(root, 'nowhere')),
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: 'EMBEDDING_MODEL_UNAVAILABLE',
      details: { kind: 'reranker', reason: 'missing_files', model_id: TINY_CROSS_ENCODER_ID },
    });
    expect((error as AppError).message).toContain('reranker');
  });

  it('an unloaded reranker refuses to score', async () => {
    const other = await TransformersReranker.load(config);
    await other.dispose();
    await expect(other.score('x', ['y'])).rejects.toMatchObject({
      code: 'EMBEDDING_MODEL_UNAVAILABLE',
      details: { reason: 'unloaded' },
    });
  });
});

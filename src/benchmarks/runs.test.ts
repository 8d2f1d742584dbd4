import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { EventEnvelope, JobDto } from '../contracts';
import { HASH_EMBEDDER_INFO } from '../retrieval';
import { builtinDataset } from './builtin';
import {
  agentSnapshot,
  caseResultsOf,
  configInvalid,
  describeEnvironment,
  newRunRow,
  pageOf,
  ragSnapshot,
  toRunDto,
} from './runs';

const dataset = (await builtinDataset('agent-core-v1'))!;
const ENV = describeEnvironment({ node: '20.20.2', webgpu: false }, 'hash-v1');

describe('environment', () => {
  it('names the runtime and what computes the embeddings', () => {
    expect(ENV).toEqual({
      runtime: 'node',
      platform: 'node 20.20.2',
      webgpu_available: false,
      embedding_backend: 'js',
    });
    expect(describeEnvironment({ userAgent: 'Chromium/156', webgpu: true }, 'bge-m3')).toEqual({
      runtime: 'browser',
      platform: 'Chromium/156',
      webgpu_available: true,
      embedding_backend: 'webgpu',
    });
    expect(describeEnvironment({ webgpu: false }, 'bge-m3')).toMatchObject({
      platform: 'unknown',
      embedding_backend: 'wasm',
    });
  });
});

describe('snapshots and rows', () => {
  it('records rerank as what ran: on only with a reranker', () => {
    const retrieval = { top_k: 5, rrf_k: 60, rerank: true, rerank_candidates: 20, score_threshold: 0 };
    const input = {
      dataset,
      hash: 'sha256:x',
      modes: ['fts' as const],
      repeat: 1,
      retrieval,
      embedding: HASH_EMBEDDER_INFO,
      reranker: null,
      indexVersion: { full_text: 1, vectors: 1 },
      profile: { profile_id: 'default-v2', version: 2 },
      answerModel: null,
      concurrency: 2,
      environment: ENV,
    };
    expect(ragSnapshot(input)).toMatchObject({
      concurrency: 2,
      dataset_id: 'agent-core-v1',
      dataset_hash: 'sha256:x',
      retrieval: { rerank: false },
      reranker: null,
      answer_model: null,
      profile_id: 'default-v2',
    });
    const reranked = ragSnapshot({
      ...input,
      reranker: { model_id: 'tiny-rerank', model_version: '1' },
      answerModel: { provider_id: 'mock', model: 'mock-1' },
    });
    expect(reranked).toMatchObject({ retrieval: { rerank: true }, answer_model: { model: 'mock-1' } });
  });

  it('caps an agent run at the runtime step limit and records the concurrency it ran with', () => {
    const snapshot = agentSnapshot({
      dataset,
      hash: 'sha256:y',
      providerId: 'mock',
      model: 'mock-1',
      maxSteps: 100,
      tokenBudget: 500,
      concurrency: 3,
      embedding: HASH_EMBEDDER_INFO,
      environment: ENV,
    });
    expect(snapshot).toMatchObject({ max_steps: 50, concurrency: 3, skill_id: null, token_budget: 500 });
    const row = newRunRow('benchmark_1', 'agent', snapshot, { a: 1 }, '2026-12-01T00:00:00Z');
    expect(row).toMatchObject({
      dataset_id: 'agent-core-v1',
      dataset_hash: 'sha256:y',
      job_id: '',
      cases: null,
    });
  });

  it('shows metrics only once the job completed', () => {
    const row = {
      ...newRunRow('r', 'rag', { dataset_id: 'd', dataset_hash: 'h', dataset_version: '1' }, {}, 't'),
      metrics: { kind: 'agent', task_success_rate: 1 } as never,
    };
    const job = {
      status: 'running',
      progress: null,
      error: null,
      started_at: 's',
      completed_at: null,
    } as unknown as JobDto;
    expect(toRunDto(row, job).metrics).toBeNull();
    expect(toRunDto(row, { ...job, status: 'completed' }).metrics).toEqual(row.metrics);
  });
});

describe('helpers', () => {
  it('keeps only CaseResult events, in order', () => {
    const events = ['Started', 'CaseResult', 'Progress', 'CaseResult'].map((event, index): EventEnvelope => ({
      id: index,
      sequence: index + 1,
      event,
      resource_id: 'job',
      data: { case_id: `c${index}` },
      timestamp: 't',
    }));
    expect(caseResultsOf(events).map((result) => result.case_id)).toEqual(['c1', 'c3']);
  });

  it('pages with the true total', () => {
    expect(pageOf([1, 2, 3, 4, 5], 1, 2)).toEqual({ items: [2, 3], page: { total: 5, limit: 2, offset: 1 } });
    expect(pageOf([1], 4, 2)).toEqual({ items: [], page: { total: 1, limit: 2, offset: 4 } });
  });

  it('names the first bad field of a request', () => {
    const parsed = z.object({ modes: z.array(z.enum(['fts'])) }).safeParse({ modes: ['bm25'] });
    expect(parsed.success).toBe(false);
    const error = configInvalid(parsed.error!);
    expect(error).toMatchObject({ code: 'BENCHMARK_CONFIG_INVALID', details: { field: 'modes.0' } });
    expect(error.message).toMatch(/^This benchmark is not valid: modes\.0 /);
  });
});

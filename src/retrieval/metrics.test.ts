import { describe, expect, it } from 'vitest';
import { firstHitRank, hitAt, mrr, recallAt, type RankedCase } from './metrics';

const cases: RankedCase[] = [
  { expected: ['a'], ranked: ['a', 'b', 'c'] }, // rank 1
  { expected: ['c'], ranked: ['a', 'b', 'c'] }, // rank 3
  { expected: ['x', 'b'], ranked: ['a', 'b', 'x'] }, // rank 2 (the first expected id found)
  { expected: ['z'], ranked: ['a', 'b', 'c'] }, // missed
];

describe('ranking metrics', () => {
  it('hit@k is the share of cases with an expected id in the top k', () => {
    expect(hitAt(cases, 1)).toBe(1 / 4);
    expect(hitAt(cases, 2)).toBe(2 / 4);
    expect(hitAt(cases, 5)).toBe(3 / 4);
  });

  it('MRR averages 1 / rank of the first expected id, 0 for a miss', () => {
    // (1/1 + 1/3 + 1/2 + 0) / 4 = 1.8333... / 4 = 0.458333...
    expect(mrr(cases)).toBeCloseTo(0.458333, 6);
  });

  it('recall@k averages the share of expected ids found', () => {
    // (1 + 0 + 1/2 + 0) / 4 at k = 2; (1 + 1 + 1 + 0) / 4 at k = 3.
    expect(recallAt(cases, 2)).toBe(0.375);
    expect(recallAt(cases, 3)).toBe(0.75);
  });

  it('reports the first hit rank and handles empty input', () => {
    expect(firstHitRank({ expected: ['c'], ranked: ['a', 'c'] })).toBe(2);
    expect(firstHitRank({ expected: ['c'], ranked: [] })).toBe(Number.POSITIVE_INFINITY);
    expect(hitAt([], 5)).toBe(0);
    expect(mrr([])).toBe(0);
  });
});

/**
 * Ranking metrics of §9.7, shared by the tests and (later) the benchmark
 * runner so both report the same numbers. A case is a hit when any of its
 * expected ids is retrieved. An empty case list scores 0, not NaN, so reports
 * stay valid JSON.
 */
export interface RankedCase {
  expected: readonly string[];
  ranked: readonly string[];
}

/** Share of cases with an expected id among the first k ranked. */
export function hitAt(cases: readonly RankedCase[], k: number): number {
  return mean(cases, (entry) => (firstHitRank(entry) <= k ? 1 : 0));
}

/** Mean reciprocal rank of the first expected id; 0 for a case that never finds one. */
export function mrr(cases: readonly RankedCase[]): number {
  return mean(cases, (entry) => {
    const rank = firstHitRank(entry);
    return Number.isFinite(rank) ? 1 / rank : 0;
  });
}

/** Share of each case's expected ids found in the first k, averaged over cases. */
export function recallAt(cases: readonly RankedCase[], k: number): number {
  return mean(cases, (entry) => {
    const expected = new Set(entry.expected);
    if (expected.size === 0) return 0;
    const found = new Set(entry.ranked.slice(0, k).filter((id) => expected.has(id)));
    return found.size / expected.size;
  });
}

/** 1-based rank of the first expected id, Infinity when none is ranked. */
export function firstHitRank(entry: RankedCase): number {
  const expected = new Set(entry.expected);
  const index = entry.ranked.findIndex((id) => expected.has(id));
  return index < 0 ? Number.POSITIVE_INFINITY : index + 1;
}

function mean(cases: readonly RankedCase[], score: (entry: RankedCase) => number): number {
  if (cases.length === 0) return 0;
  let total = 0;
  for (const entry of cases) total += score(entry);
  return total / cases.length;
}

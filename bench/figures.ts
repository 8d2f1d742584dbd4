// Small figure helpers the benches share: a percentile, a printed result row,
// one timed call, and the fastest of repeated runs.
import { performance } from 'node:perf_hooks';
import { formatMs, type BenchResult } from './harness';

/** The p-th percentile (nearest rank) of unsorted values. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** A result row, printed as soon as it is measured: a run cut short still shows what it measured. */
export function row(
  name: string,
  baseline: string,
  ms: number,
  baselineMs: number,
  note?: string,
): BenchResult {
  const result: BenchResult = { name, baseline, ms, baselineMs, ratio: ms / baselineMs };
  if (note !== undefined) result.note = note;
  console.log(
    `  ${name}: ${formatMs(ms)} vs ${baseline} ${formatMs(baselineMs)} = ${result.ratio.toFixed(2)}×${note ? ` (${note})` : ''}`,
  );
  return result;
}

/** What `work` returned and how long it took, in ms. */
export async function timed<T>(work: () => T | Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const value = await work();
  return [value, performance.now() - start];
}

/**
 * Each item's fastest time across runs of the same items in the same order:
 * on a shared machine an item the scheduler paused lands in a single run's
 * p95; its fastest of several runs does not.
 */
export function fastestPerItem(runs: readonly (readonly number[])[]): number[] {
  return runs[0]!.map((_, i) => Math.min(...runs.map((times) => times[i]!)));
}

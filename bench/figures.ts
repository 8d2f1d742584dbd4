// Small figure helpers the benches share: a percentile and a printed result row.
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

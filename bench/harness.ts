import { performance } from 'node:perf_hooks';

export interface BenchResult {
  name: string;
  baseline: string;
  ms: number;
  baselineMs: number;
  ratio: number;
  /** Extra figures for the row (throughput, sizes), printed in a last column. */
  note?: string;
}

/** Runs `fn` `runs` times after one warm-up and returns the median in ms. */
export async function median(fn: () => Promise<void>, runs: number): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/**
 * A benchmark is a pair measured in the same process, interleaved, so machine
 * noise hits both sides; the ratio (ours / baseline) is what is compared over time.
 */
export async function compare(
  name: string,
  baseline: string,
  ours: () => Promise<void>,
  reference: () => Promise<void>,
  runs = 3,
): Promise<BenchResult> {
  const baselineMs = await median(reference, runs);
  const ms = await median(ours, runs);
  return { name, baseline, ms, baselineMs, ratio: ms / baselineMs };
}

/** Whole milliseconds for long runs; sub-millisecond query latencies keep their digits. */
export function formatMs(ms: number): string {
  return `${ms.toFixed(ms >= 100 ? 0 : ms >= 10 ? 1 : ms >= 1 ? 2 : 3)} ms`;
}

export function report(results: BenchResult[]): string {
  const notes = results.some((r) => r.note !== undefined);
  const rows = results.map((r) => [
    r.name,
    formatMs(r.ms),
    r.baseline,
    formatMs(r.baselineMs),
    `${r.ratio.toFixed(2)}×`,
    ...(notes ? [r.note ?? ''] : []),
  ]);
  const header = ['benchmark', 'time', 'baseline', 'baseline time', 'ratio', ...(notes ? ['notes'] : [])];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

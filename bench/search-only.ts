// `npx tsx bench/search-only.ts`: the search-at-scale group of `npm run bench` alone (BENCH_SCALE applies).
// SEARCH_BENCH_PART=engines or =notebook runs one half.
import type { BenchResult } from './harness';
import { report } from './harness';
import { engineComparisons, notebookBenchmarks } from './search-scale';

const scale = Number(process.env.BENCH_SCALE ?? 1);
const part = process.env.SEARCH_BENCH_PART;
const results: BenchResult[] = [];
if (part !== 'notebook') await engineComparisons(scale, results);
if (part !== 'engines') await notebookBenchmarks(scale, results);
console.log(report(results));

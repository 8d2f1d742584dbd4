// `npx tsx bench/search-only.ts`: the search-at-scale group of `npm run bench` alone (BENCH_SCALE applies).
// SEARCH_BENCH_PART=engines, =memory or =notebook runs one part; =hybrid the hybrid rows of engines alone.
import type { BenchResult } from './harness';
import { report } from './harness';
import { engineComparisons, hybridOnly, memoryBenchmarks, notebookBenchmarks } from './search-scale';

const scale = Number(process.env.BENCH_SCALE ?? 1);
const part = process.env.SEARCH_BENCH_PART;
const results: BenchResult[] = [];
if (part === undefined || part === 'engines') await engineComparisons(scale, results);
if (part === 'hybrid') await hybridOnly(scale, results);
if (part === undefined || part === 'memory') memoryBenchmarks(scale);
if (part === undefined || part === 'notebook') await notebookBenchmarks(scale, results);
console.log(report(results));

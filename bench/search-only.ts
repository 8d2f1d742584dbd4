// `npx tsx bench/search-only.ts`: the search-at-scale group of `npm run bench` alone (BENCH_SCALE applies).
import { report } from './harness';
import { searchScaleBenchmarks } from './search-scale';

console.log(report(await searchScaleBenchmarks(Number(process.env.BENCH_SCALE ?? 1))));

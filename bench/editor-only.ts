// `npx tsx bench/editor-only.ts`: the editor typing group of `npm run bench` alone (BENCH_SCALE applies).
import { editorBenchmarks } from './editor';
import { report } from './harness';

console.log(report(await editorBenchmarks(Number(process.env.BENCH_SCALE ?? 1))));

// `npx tsx bench/audio-decode-only.ts`: the audio decoding group of `npm run bench`
// alone (BENCH_SCALE as there; 0.1 decodes a 6 s recording).
import { audioDecodeBenchmarks } from './audio-decode';
import { report } from './harness';

console.log(report(await audioDecodeBenchmarks(Number(process.env.BENCH_SCALE ?? 1))));

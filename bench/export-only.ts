// `npx tsx bench/export-only.ts`: the export group of `npm run bench` alone.
import { exportBenchmarks } from './export';
import { report } from './harness';

console.log(report(await exportBenchmarks()));

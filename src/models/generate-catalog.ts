// Build-time tool, run in Node after upgrading web-llm:
//   npx tsx src/models/generate-catalog.ts
// Writes prebuilt-models.generated.json from web-llm's own `prebuiltAppConfig`.
// `model-catalog.test.ts` fails while the file is out of date. Never bundled.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format } from 'prettier';
import { CURATED_MODELS } from './curated-models';
import { snapshotPrebuilt } from './prebuilt-snapshot';

const target = new URL('./prebuilt-models.generated.json', import.meta.url);
const webllm = await import('@mlc-ai/web-llm');
const snapshot = snapshotPrebuilt(
  webllm,
  CURATED_MODELS.map((model) => model.id),
);
const text = await format(JSON.stringify(snapshot), { parser: 'json', printWidth: 110 });
writeFileSync(target, text);
console.warn(`wrote ${snapshot.models.length} models to ${fileURLToPath(target)}`);

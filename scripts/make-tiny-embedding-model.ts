/**
 * Writes the generated tiny embedding model where transformers.js looks for a
 * local model, e.g. for an end-to-end run that serves it from the app:
 *
 *   npx tsx scripts/make-tiny-embedding-model.ts <local-model-path> [model-id] [--dimension N] [--seed S]
 *
 * Files land in `<local-model-path>/<model-id>/`. Deterministic: the same
 * arguments give the same bytes.
 */
import { TINY_MODEL_ID, writeTinyEmbeddingModel } from '../src/retrieval/__fixtures__/tiny-model/index.ts';

function usage(message: string): never {
  process.stderr.write(
    `${message}\nusage: tsx scripts/make-tiny-embedding-model.ts <local-model-path> [model-id] [--dimension N] [--seed S]\n`,
  );
  process.exit(2);
}

const positional: string[] = [];
let dimension: number | undefined;
let seed: string | undefined;
const args = process.argv.slice(2);
for (let index = 0; index < args.length; index++) {
  const arg = args[index] ?? '';
  if (arg === '--dimension') dimension = Number(args[++index]);
  else if (arg === '--seed') seed = args[++index];
  else if (arg.startsWith('--')) usage(`unknown option ${arg}`);
  else positional.push(arg);
}
const [localModelPath, modelId = TINY_MODEL_ID] = positional;
if (!localModelPath) usage('missing <local-model-path>');

const { directory, bytes } = await writeTinyEmbeddingModel(localModelPath, modelId, {
  ...(dimension !== undefined ? { dimension } : {}),
  ...(seed !== undefined ? { seed } : {}),
});
const total = Object.values(bytes).reduce((sum, size) => sum + size, 0);
process.stdout.write(`wrote ${directory} (${Object.keys(bytes).join(', ')}; ${total} bytes)\n`);

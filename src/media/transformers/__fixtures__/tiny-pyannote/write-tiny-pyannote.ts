import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { buildTinyPyannote, TINY_PYANNOTE_MODEL_ID } from './tiny-pyannote';

/** Writes the tiny pyannote model under `<root>/<modelId>/` (Node only; tests). */
export async function writeTinyPyannote(
  root: string,
  modelId: string = TINY_PYANNOTE_MODEL_ID,
): Promise<string> {
  const directory = join(root, modelId);
  for (const [path, content] of Object.entries(buildTinyPyannote())) {
    const target = join(directory, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
  }
  return directory;
}

import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { buildTinyWhisper, TINY_WHISPER_MODEL_ID, type TinyWhisperOptions } from './tiny-whisper';

/**
 * Writes the tiny Whisper model under `<root>/<modelId>/`, the layout
 * transformers.js reads from `env.localModelPath` (Node only; tests).
 */
export async function writeTinyWhisper(
  root: string,
  options: TinyWhisperOptions & { modelId?: string } = {},
): Promise<string> {
  const directory = join(root, options.modelId ?? TINY_WHISPER_MODEL_ID);
  for (const [path, content] of Object.entries(buildTinyWhisper(options))) {
    const target = join(directory, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
  }
  return directory;
}

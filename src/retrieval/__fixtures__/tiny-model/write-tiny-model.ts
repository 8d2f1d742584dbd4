import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { buildTinyCrossEncoder, TINY_CROSS_ENCODER_ID } from './tiny-cross-encoder';
import {
  buildTinyEmbeddingModel,
  type TinyEmbeddingModelOptions,
  type TinyModelFiles,
} from './tiny-embedding-model';

/**
 * Writes the tiny model where transformers.js looks for a local model:
 * `<localModelPath>/<modelId>/{config.json, tokenizer.json,
 * tokenizer_config.json, onnx/model.onnx}`. Node only (tests and scripts).
 * Returns the model folder and the size of each file in bytes.
 */
export async function writeTinyEmbeddingModel(
  localModelPath: string,
  modelId: string,
  options: TinyEmbeddingModelOptions = {},
): Promise<{ directory: string; bytes: Record<string, number> }> {
  return writeModelFiles(localModelPath, modelId, buildTinyEmbeddingModel(options));
}

/** Writes the tiny cross-encoder (./tiny-cross-encoder) the same way. */
export function writeTinyCrossEncoder(
  localModelPath: string,
  modelId: string = TINY_CROSS_ENCODER_ID,
  options: TinyEmbeddingModelOptions = {},
): Promise<{ directory: string; bytes: Record<string, number> }> {
  return writeModelFiles(localModelPath, modelId, buildTinyCrossEncoder(options));
}

async function writeModelFiles(
  localModelPath: string,
  modelId: string,
  files: TinyModelFiles,
): Promise<{ directory: string; bytes: Record<string, number> }> {
  const directory = join(localModelPath, modelId);
  const bytes: Record<string, number> = {};
  for (const [path, content] of Object.entries(files)) {
    const target = join(directory, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
    bytes[path] = content.byteLength;
  }
  return { directory, bytes };
}

import type { BenchmarkDatasetFile } from '../contracts/benchmark';
import { parseDataset } from './dataset';

/**
 * The datasets shipped with the app, by id. Each is its own chunk (the RAG
 * corpus is ~200 KB), loaded the first time a benchmark needs it and parsed
 * once, so the core worker does not carry them; the service worker precaches
 * the chunks like any other, so they work offline.
 */
const SOURCES: Readonly<Record<string, () => Promise<{ default: unknown }>>> = {
  'rag-core-v1': () => import('./datasets/rag-core-v1.json'),
  'agent-core-v1': () => import('./datasets/agent-core-v1.json'),
};

const loaded = new Map<string, Promise<BenchmarkDatasetFile>>();

export const BUILTIN_DATASET_IDS: readonly string[] = Object.keys(SOURCES);

export function isBuiltinDataset(datasetId: string): boolean {
  return Object.hasOwn(SOURCES, datasetId);
}

/** The shipped dataset with this id, or undefined for any other id. */
export async function builtinDataset(datasetId: string): Promise<BenchmarkDatasetFile | undefined> {
  if (!isBuiltinDataset(datasetId)) return undefined;
  let dataset = loaded.get(datasetId);
  if (!dataset) {
    dataset = SOURCES[datasetId]!().then((module) => parseDataset(module.default));
    loaded.set(datasetId, dataset);
    // A chunk that failed to load (offline before it was cached) is tried again next time.
    dataset.catch(() => loaded.delete(datasetId));
  }
  return dataset;
}

import type { BenchmarkDatasetFile } from '../contracts/benchmark';
import agentCoreV1 from './datasets/agent-core-v1.json';
import ragCoreV1 from './datasets/rag-core-v1.json';
import { parseDataset } from './dataset';

/**
 * The datasets shipped with the app, by id. They are parsed lazily and once:
 * the RAG corpus is the largest object the benchmark page ever loads.
 */
const SOURCES: Readonly<Record<string, unknown>> = {
  'rag-core-v1': ragCoreV1,
  'agent-core-v1': agentCoreV1,
};

const parsed = new Map<string, BenchmarkDatasetFile>();

export const BUILTIN_DATASET_IDS: readonly string[] = Object.keys(SOURCES);

export function builtinDataset(datasetId: string): BenchmarkDatasetFile | undefined {
  const cached = parsed.get(datasetId);
  if (cached) return cached;
  const source = SOURCES[datasetId];
  if (source === undefined) return undefined;
  const dataset = parseDataset(source);
  parsed.set(datasetId, dataset);
  return dataset;
}

import { t as bt, type MessageKey } from '../i18n';

/**
 * The shipped datasets by the words a person knows them by, in the UI's language.
 * Their ids stay what runs, files and the CLI use; a dataset the user made or
 * imported keeps the id and description it came with (the core refuses an
 * imported dataset that takes a shipped id, so an id here is always the shipped one).
 */
const BUILTIN: Readonly<Record<string, { name: MessageKey; description: MessageKey }>> = {
  'rag-core-v1': {
    name: 'benchmarkView.dataset.rag-core-v1.name',
    description: 'benchmarkView.dataset.rag-core-v1.description',
  },
  'agent-core-v1': {
    name: 'benchmarkView.dataset.agent-core-v1.name',
    description: 'benchmarkView.dataset.agent-core-v1.description',
  },
};

const builtin = (datasetId: string) => (Object.hasOwn(BUILTIN, datasetId) ? BUILTIN[datasetId] : undefined);

export function datasetName(datasetId: string): string {
  const keys = builtin(datasetId);
  return keys ? bt(keys.name) : datasetId;
}

/** One line on what the dataset tests; `description` is the dataset's own, used for any other. */
export function datasetDescription(dataset: { dataset_id: string; description: string }): string {
  const keys = builtin(dataset.dataset_id);
  return keys ? bt(keys.description) : dataset.description;
}

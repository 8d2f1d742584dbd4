/** transformers.js' one Cache Storage cache: embeddings, reranker, Whisper, speaker labels. */
export const MODEL_FILES_CACHE = 'transformers-cache';

/**
 * The model-files cache if the browser has one, else null. `open` would create it, so a
 * notebook that never downloaded a model is asked with `has` first.
 */
export async function existingModelFilesCache<T>(store: {
  has(name: string): Promise<boolean>;
  open(name: string): Promise<T>;
}): Promise<T | null> {
  return (await store.has(MODEL_FILES_CACHE)) ? store.open(MODEL_FILES_CACHE) : null;
}

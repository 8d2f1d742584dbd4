import { AppError, isAbortError } from '../contracts/errors';

/** Maps anything a load or download throws to the contract's error; aborts and AppErrors pass through. */
export function toEmbeddingModelError(error: unknown, modelId: string): unknown {
  if (isAbortError(error) || error instanceof AppError) return error;
  const name = error instanceof Error ? error.name : '';
  const message = error instanceof Error ? error.message : String(error);
  if (
    name === 'ModelFileNotFoundError' ||
    /not found|could not locate|404|no such file|ENOENT/i.test(message)
  ) {
    return new AppError(
      'EMBEDDING_MODEL_UNAVAILABLE',
      `The embedding model "${modelId}" is not available: its files are not on this device and could not be downloaded.`,
      { model_id: modelId, reason: 'missing_files' },
      { cause: error },
    );
  }
  // fetch's own failures: "fetch failed" (Node), "Failed to fetch" (Chromium),
  // "NetworkError ..." (Firefox), "Load failed" (Safari). Other TypeErrors are bugs.
  if (/fetch|network|load failed|ECONNREFUSED|ENOTFOUND|ETIMEDOUT|EAI_AGAIN|offline/i.test(message)) {
    return new AppError(
      'EMBEDDING_MODEL_UNAVAILABLE',
      `The embedding model "${modelId}" could not be downloaded: the model host cannot be reached. Check the connection or the model host setting.`,
      { model_id: modelId, reason: 'network' },
      { cause: error },
    );
  }
  return new AppError(
    'EMBEDDING_MODEL_UNAVAILABLE',
    `The embedding model "${modelId}" could not be loaded.`,
    { model_id: modelId, reason: 'load_failed' },
    { cause: error },
  );
}

import { existingModelFilesCache } from '../model-files-cache';

/** The part of the Cache API this reads: which model files the browser holds. */
export interface ModelFileCaches {
  has(name: string): Promise<boolean>;
  open(name: string): Promise<{ keys(): Promise<ReadonlyArray<{ url: string }>> }>;
}

/**
 * The embedding models with files in the browser's model cache, of those asked
 * about; null when the cache cannot be read (no Cache API), so nothing is
 * marked on a guess. A benchmark never downloads a model: one with no file here
 * can only fail the run. A file is kept under its download URL, which holds the
 * model id as a path (`…/Xenova/multilingual-e5-small/resolve/…`) whatever the host.
 */
export async function modelsOnDevice(
  modelIds: readonly string[],
  store: ModelFileCaches | undefined = typeof caches === 'undefined' ? undefined : caches,
): Promise<Set<string> | null> {
  if (!store) return null;
  try {
    const cache = await existingModelFilesCache(store);
    if (!cache) return new Set();
    const paths = (await cache.keys()).map((request) => safePath(request.url));
    return new Set(modelIds.filter((id) => paths.some((path) => path.includes(`/${id}/`))));
  } catch {
    return null;
  }
}

function safePath(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname);
  } catch {
    return url;
  }
}

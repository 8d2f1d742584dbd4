import type { StorageUsageDto } from '../../contracts/settings-storage';
import { core } from '../api/core-client';
import { reportError } from '../errors';
import { t } from '../i18n';
import { toasts } from '../toasts/toasts.svelte';

/** Cache Storage caches that hold only downloaded model files (transformers.js, web-llm). */
const MODEL_CACHE = /^(transformers-cache$|webllm\/)/;

export interface StorageBreakdown {
  usage: StorageUsageDto | null;
  /** Bytes of in-browser chat models downloaded, and how many. */
  models: { count: number; bytes: number } | null;
  /** The browser's own split of this site's usage (Chromium: indexedDB, caches, …), when it gives one. */
  details: Record<string, number> | null;
}

export async function loadStorageBreakdown(): Promise<StorageBreakdown> {
  const [usage, models, estimate] = await Promise.all([
    core.storage.usage().catch((error: unknown) => {
      reportError(error);
      return null;
    }),
    core.localModels.list().then(
      (list) => {
        const cached = list.items.filter((item) => item.cached);
        return { count: cached.length, bytes: cached.reduce((sum, item) => sum + (item.size_bytes ?? 0), 0) };
      },
      // No local-model worker here: nothing downloaded to list.
      () => null,
    ),
    typeof navigator !== 'undefined' && navigator.storage?.estimate
      ? navigator.storage.estimate().catch(() => null)
      : Promise.resolve(null),
  ]);
  const details = (estimate as { usageDetails?: Record<string, number> } | null)?.usageDetails ?? null;
  return { usage, models, details };
}

/** Deletes every note in the trash for good. Returns how many. */
export async function emptyTrash(): Promise<number> {
  let deleted = 0;
  try {
    for (;;) {
      const page = await core.notes.list({ trashed: true, limit: 100, offset: 0 });
      if (page.items.length === 0) break;
      for (const note of page.items) {
        await core.notes.purge(note.note_id);
        deleted += 1;
      }
    }
    toasts.show(t('storage.trashEmptied', { count: deleted }), { kind: 'success' });
  } catch (error) {
    reportError(error);
  }
  return deleted;
}

/**
 * Frees every downloaded model: in-browser chat models through their service (it keeps its
 * own records right) and the transformers.js files (embeddings, reranker, Whisper, speaker
 * labels), which download again when next needed.
 */
export async function clearModelCaches(): Promise<void> {
  try {
    const list = await core.localModels.list().catch(() => null);
    for (const item of list?.items.filter((entry) => entry.cached) ?? [])
      await core.localModels.delete(item.model);
    if (typeof caches !== 'undefined') {
      for (const name of await caches.keys()) if (MODEL_CACHE.test(name)) await caches.delete(name);
    }
    toasts.show(t('storage.modelsCleared'), { kind: 'success' });
  } catch (error) {
    reportError(error);
  }
}

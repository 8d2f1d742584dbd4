import { cachedResponseBytes } from '../../core/cached-response-bytes';
import type { StorageUsageDto, StoredKindDto } from '../../contracts/settings-storage';
import { formatBytes } from '../format';
import { existingModelFilesCache, MODEL_FILES_CACHE } from '../model-files-cache';
import { core } from '../api/core-client';
import { reportError } from '../errors';
import { i18n, t } from '../i18n';
import { toasts } from '../toasts/toasts.svelte';

/** The Cache Storage caches of web-llm (chat models, their libraries). */
const CHAT_MODEL_CACHE = /^webllm\//;

export interface StorageBreakdown {
  usage: StorageUsageDto | null;
  /** Bytes of in-browser chat models downloaded, and how many. */
  models: { count: number; bytes: number } | null;
  /** transformers.js' downloaded files (search, speech, speaker models): how many and their bytes. */
  modelFiles: { count: number; bytes: number } | null;
  /** The browser's own split of this site's usage (Chromium: indexedDB, caches, …), when it gives one. */
  details: Record<string, number> | null;
}

export async function loadStorageBreakdown(): Promise<StorageBreakdown> {
  const [usage, models, modelFiles, estimate] = await Promise.all([
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
    modelFileUsage().catch(() => null),
    typeof navigator !== 'undefined' && navigator.storage?.estimate
      ? navigator.storage.estimate().catch(() => null)
      : Promise.resolve(null),
  ]);
  const details = (estimate as { usageDetails?: Record<string, number> } | null)?.usageDetails ?? null;
  return { usage, models, modelFiles, details };
}

async function modelFileUsage(): Promise<{ count: number; bytes: number } | null> {
  if (typeof caches === 'undefined') return null;
  const cache = await existingModelFilesCache(caches);
  if (!cache) return { count: 0, bytes: 0 };
  const requests = await cache.keys();
  let bytes = 0;
  for (const request of requests) {
    const response = await cache.match(request);
    if (response) bytes += await cachedResponseBytes(response);
  }
  return { count: requests.length, bytes };
}

/**
 * Pictures no note, note history, draft or chat message uses. Asked for apart
 * from the rest: it reads every note. Null when it could not be found out.
 */
export async function loadUnusedPictures(): Promise<StoredKindDto | null> {
  try {
    return await core.storage.unusedPictures();
  } catch (error) {
    reportError(error);
    return null;
  }
}

/** Deletes the pictures nothing uses and says how many and how much space that freed. */
export async function deleteUnusedPictures(): Promise<void> {
  try {
    const deleted = await core.storage.deleteUnusedPictures();
    toasts.show(
      t('storage.unusedPicturesDeleted', {
        count: deleted.count,
        size: formatBytes(deleted.bytes, i18n.locale),
      }),
      { kind: 'success' },
    );
  } catch (error) {
    reportError(error);
  }
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

/** Deletes the downloaded in-browser chat models (web-llm); they download again when next chosen. */
export async function clearChatModels(): Promise<void> {
  try {
    const list = await core.localModels.list().catch(() => null);
    // Through their service, which keeps its own records right.
    for (const item of list?.items.filter((entry) => entry.cached) ?? [])
      await core.localModels.delete(item.model);
    if (typeof caches !== 'undefined') {
      for (const name of await caches.keys()) if (CHAT_MODEL_CACHE.test(name)) await caches.delete(name);
    }
    toasts.show(t('storage.chatModelsCleared'), { kind: 'success' });
  } catch (error) {
    reportError(error);
  }
}

/** Deletes transformers.js' model files (embeddings, reranker, Whisper, speaker labels); they download again when next needed. */
export async function clearModelFiles(): Promise<void> {
  try {
    if (typeof caches !== 'undefined') await caches.delete(MODEL_FILES_CACHE);
    toasts.show(t('storage.modelFilesCleared'), { kind: 'success' });
  } catch (error) {
    reportError(error);
  }
}

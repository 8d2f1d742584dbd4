import type { ErrorCode } from '../../contracts/error-codes';
import type { MessageKey } from '../i18n';

/**
 * Why vectors did not answer, said so that the reader knows what to do: every
 * cause is fixed in Settings → Search (rebuild, another model), so each notice
 * offers the way there rather than only naming the problem.
 */
export function fallbackNoticeKey(reason: ErrorCode): MessageKey {
  switch (reason) {
    case 'INDEX_MODEL_MISMATCH':
      return 'search.fallback.INDEX_MODEL_MISMATCH';
    case 'VECTOR_INDEX_REBUILD_REQUIRED':
      return 'search.fallbackNotice.rebuildRequired';
    case 'EMBEDDING_MODEL_UNAVAILABLE':
      return 'search.fallbackNotice.modelUnavailable';
    default:
      return 'search.fallbackNotice.other';
  }
}

/**
 * What "nothing matches" says was searched: a folder or tag chosen in the
 * sidebar narrows the search, and the user may have forgotten it.
 */
export function emptyResultKey(filters: {
  folder: string | null;
  tag: string | null;
}): 'search.noResults' | 'search.noResultsInFolder' | 'search.noResultsInTag' {
  if (filters.folder !== null) return 'search.noResultsInFolder';
  if (filters.tag !== null) return 'search.noResultsInTag';
  return 'search.noResults';
}

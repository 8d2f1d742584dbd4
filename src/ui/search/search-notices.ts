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

/**
 * A Chinese run this short is one word (most are two characters); a longer
 * one, typed without spaces, is likely a compound (集群监控) that the notes
 * never write as one, and putting spaces between its words is the hint that helps.
 */
const ONE_WORD_CJK_RUN = 2;
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30fc]+/gu;

/**
 * What to try when nothing matches. Spaces and fewer words help a query of
 * many words or a Chinese compound; a single word (`xqzvbnm`, `靐龘`) has no
 * words to drop or spaces to put in: its spelling, a shorter beginning of it,
 * or another word may find something.
 */
export function noResultsHintKey(query: string): 'search.noResultsHint' | 'search.noResultsHintOneWord' {
  const words = query.trim().split(/\s+/u);
  if (words.length !== 1) return 'search.noResultsHint';
  const runs = words[0]!.match(CJK_RUN) ?? [];
  const oneTerm = runs.length === 0 || (runs.length === 1 && [...runs[0]!].length <= ONE_WORD_CJK_RUN);
  return oneTerm ? 'search.noResultsHintOneWord' : 'search.noResultsHint';
}

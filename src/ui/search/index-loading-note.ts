import type { SearchResultDto } from '../../contracts/search';

/**
 * What the results say about themselves while the stored index loads after a
 * start: matches so far are marked as partial, and no match so far is not
 * "nothing matches" (the search runs again once the index has loaded).
 */
export function indexLoadingNote(result: Pick<SearchResultDto, 'index_loading' | 'hits'> | null): {
  loadingKey: 'search.indexLoading' | 'search.indexLoadingNone' | null;
  nothingMatches: boolean;
} {
  if (result === null) return { loadingKey: null, nothingMatches: false };
  const empty = result.hits.length === 0;
  if (result.index_loading === true) {
    return { loadingKey: empty ? 'search.indexLoadingNone' : 'search.indexLoading', nothingMatches: false };
  }
  return { loadingKey: null, nothingMatches: empty };
}

import { describe, expect, it } from 'vitest';
import type { SearchHitDto } from '../../contracts/search';
import { indexLoadingNote } from './index-loading-note';

const hit = { block_id: 'b', note_id: 'n' } as SearchHitDto;

describe('indexLoadingNote', () => {
  it('marks matches found while the index loads as partial', () => {
    expect(indexLoadingNote({ index_loading: true, hits: [hit] })).toEqual({
      loadingKey: 'search.indexLoading',
      nothingMatches: false,
    });
  });

  it('does not say "nothing matches" while the index loads: the search runs again', () => {
    expect(indexLoadingNote({ index_loading: true, hits: [] })).toEqual({
      loadingKey: 'search.indexLoadingNone',
      nothingMatches: false,
    });
  });

  it('says nothing matches once the index has loaded and nothing does', () => {
    expect(indexLoadingNote({ index_loading: false, hits: [] })).toEqual({
      loadingKey: null,
      nothingMatches: true,
    });
    expect(indexLoadingNote({ hits: [hit] })).toEqual({ loadingKey: null, nothingMatches: false });
    expect(indexLoadingNote(null)).toEqual({ loadingKey: null, nothingMatches: false });
  });
});

import type { IndexRepository, NotesRepository } from '../db';

/**
 * What the indexer needs from storage, and no more: the notes it indexes and
 * the store its indexes are saved to. The app passes its repositories; a test
 * can pass anything with these methods.
 */
export type IndexNotesSource = Pick<NotesRepository, 'countBlocks' | 'indexSources' | 'liveNoteIds'> &
  /** Bodies, for the aliases in a note's front matter (which is no block); without it none are indexed. */
  Partial<Pick<NotesRepository, 'getMany'>>;
export type IndexStore = Pick<
  IndexRepository,
  | 'load'
  | 'loadHead'
  | 'liveStamps'
  | 'segmentPages'
  | 'markDirty'
  | 'save'
  | 'putSegments'
  | 'dropGenerationsExcept'
  | 'compact'
  | 'repack'
>;

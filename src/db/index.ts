export { NotesAgentDatabase, openDatabase, DATABASE_NAME } from './database';
export {
  MIGRATIONS,
  type ConversationRow,
  type IndexDirtyRow,
  type MessageRow,
  type Migration,
  type ProviderRow,
  type SearchSegmentRow,
  type StoredEmbeddingModel,
  type ThemeRow,
} from './schema';
export {
  NotesRepository,
  type IndexSource,
  type NoteChange,
  type NoteChangeListener,
  type NoteDraft,
  type NotePatch,
  type NoteQuery,
  type NotesRepositoryOptions,
} from './notes-repository';
export {
  IndexRepository,
  type FullTextIndexRow,
  type SegmentsToSave,
  type IndexMetaRow,
  type StoredIndexes,
  type VectorIndexRow,
} from './index-repository';
export {
  DEFAULT_PAGE_CHARS,
  DEFAULT_PAGE_ROWS,
  type NotePageOptions,
  type NotePageVisitor,
  type PagedNote,
} from './note-pages';
export { EventRepository } from './event-repository';
export { JobRepository } from './job-repository';
export { SettingsRepository } from './settings-repository';
export { AttachmentRepository, type AttachmentInfo, type AttachmentMeta } from './attachment-repository';
export {
  BlockCitationRepository,
  BLOCK_CITATIONS_TABLE,
  type BlockCitationDraft,
  type BlockCitationRow,
} from './block-citation-repository';
export { SecretsVault } from './secrets-vault';
export { ProviderRepository } from './provider-repository';
export { ConversationRepository } from './conversation-repository';
export { ThemeRepository } from './theme-repository';
export { DraftRepository, type DraftRow } from './draft-repository';
export { ImportStagingRepository, type StagedNoteRow } from './import-staging-repository';

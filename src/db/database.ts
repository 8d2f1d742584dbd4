import Dexie, { type Table } from 'dexie';
import {
  MIGRATIONS,
  type AttachmentRow,
  type BenchmarkDatasetRow,
  type BenchmarkRunRow,
  type BlockRow,
  type ConversationRow,
  type MessageRow,
  type ProviderRow,
  type EventRow,
  type FolderRow,
  type IndexDirtyRow,
  type JobRow,
  type Migration,
  type NoteMetaRow,
  type NoteRow,
  type SearchIndexRow,
  type SearchPackRow,
  type SearchSegmentRow,
  type SecretRow,
  type SettingRow,
  type ThemeRow,
  type VaultKeyRow,
} from './schema';

export const DATABASE_NAME = 'notes-agent';

export class NotesAgentDatabase extends Dexie {
  notes!: Table<NoteRow, string>;
  note_meta!: Table<NoteMetaRow, string>;
  folders!: Table<FolderRow, string>;
  blocks!: Table<BlockRow, string>;
  attachments!: Table<AttachmentRow, string>;
  jobs!: Table<JobRow, string>;
  events!: Table<EventRow, [string, number]>;
  settings!: Table<SettingRow, string>;
  secrets!: Table<SecretRow, string>;
  vault_keys!: Table<VaultKeyRow, string>;
  search_index!: Table<SearchIndexRow, SearchIndexRow['key']>;
  search_index_dirty!: Table<IndexDirtyRow, string>;
  search_segments!: Table<SearchSegmentRow, [number, string]>;
  search_packs!: Table<SearchPackRow, [number, number]>;
  providers!: Table<ProviderRow, string>;
  conversations!: Table<ConversationRow, string>;
  messages!: Table<MessageRow, string>;
  themes!: Table<ThemeRow, string>;
  benchmark_runs!: Table<BenchmarkRunRow, string>;
  benchmark_datasets!: Table<BenchmarkDatasetRow, string>;

  constructor(name: string = DATABASE_NAME, migrations: readonly Migration[] = MIGRATIONS) {
    super(name);
    let previous = 0;
    for (const migration of migrations) {
      if (migration.version <= previous) throw new Error('migrations must have ascending versions');
      previous = migration.version;
      const version = this.version(migration.version).stores(migration.stores);
      if (migration.upgrade) version.upgrade(migration.upgrade);
    }
  }
}

export function openDatabase(name?: string): NotesAgentDatabase {
  return new NotesAgentDatabase(name);
}

export { Dexie };

import type { Transaction } from 'dexie';
import type { JobDto } from '../contracts';
import type { BlockType } from '../core/blocks';

export interface NoteRow {
  note_id: string;
  title: string;
  folder: string;
  body: string;
  tags: string[];
  version: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  /** IndexedDB cannot index null, so the trash flag is a number beside deleted_at. */
  trashed: 0 | 1;
}

export interface BlockRow {
  block_id: string;
  note_id: string;
  type: BlockType;
  position: number;
  text: string;
  start_line: number;
  end_line: number;
  hash: string;
  level?: number;
}

export interface AttachmentRow {
  attachment_id: string;
  name: string;
  mime_type: string;
  size: number;
  blob: Blob;
  created_at: string;
}

export type JobRow = JobDto;

export interface EventRow {
  resource_id: string;
  sequence: number;
  event: string;
  data: unknown;
  timestamp: string;
}

export interface SettingRow {
  key: string;
  value: unknown;
}

export interface SecretRow {
  name: string;
  iv: Uint8Array<ArrayBuffer>;
  ciphertext: ArrayBuffer;
  updated_at: string;
}

export interface VaultKeyRow {
  id: string;
  key: CryptoKey;
}

/**
 * Schema history. Never edit a released entry: add a new version with the new
 * stores and an `upgrade` that moves the data. Dexie keeps the old ones to know
 * how to get from any earlier version to the newest.
 */
export interface Migration {
  version: number;
  stores: Record<string, string | null>;
  upgrade?: (transaction: Transaction) => Promise<void> | void;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    stores: {
      notes: '&note_id, folder, *tags, [trashed+updated_at]',
      blocks: '&block_id, note_id, [note_id+position]',
      attachments: '&attachment_id, created_at',
      jobs: '&job_id, kind, status, created_at',
      events: '[resource_id+sequence]',
      settings: '&key',
      secrets: '&name',
      vault_keys: '&id',
    },
  },
];

/**
 * What this app keeps in the browser, by kind, as Settings → Storage lists it. Bytes are the
 * stored text or files (UTF-8 for text), not IndexedDB's own overhead: the browser's estimate
 * covers that.
 */
export interface StoredKindDto {
  count: number;
  bytes: number;
}

export interface StorageUsageDto {
  /** Notes not in the trash. */
  notes: StoredKindDto;
  /** Notes in the trash (freed by emptying it). */
  trash: StoredKindDto;
  /** Pictures, audio and other files. */
  attachments: StoredKindDto;
  /** Earlier states of notes kept for undo and history. */
  note_versions: StoredKindDto;
}

import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

export const MIB = 1024 * 1024;

/**
 * `mib` MiB of base64 text in 76-character lines: random bytes, so deflate
 * cannot shrink it below 3:4 and the archive really carries that much. Stored
 * (not deflated) in the zip, which makes it quick to build.
 */
export function hugeNote(mib: number): Uint8Array {
  const size = mib * MIB;
  const bytes = Buffer.from(
    randomBytes(Math.ceil((size * 3) / 4))
      .toString('base64')
      .slice(0, size),
    'latin1',
  );
  for (let index = 76; index < size; index += 77) bytes[index] = 0x0a;
  bytes[size - 1] = 0x0a;
  return bytes;
}

/** Imports the archive at `path` through the import dialog (defaults: skip duplicates). */
export async function importZipFile(page: Page, path: string): Promise<void> {
  await page.getByTestId('import-zip-input').setInputFiles(path);
  const dialog = page.getByTestId('import-dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByTestId('import-start').click();
  await expect(dialog).toBeHidden();
}

export interface LegacyHugeNote {
  noteId: string;
  /** The body's length in characters. */
  length: number;
  /** The note's blocks (its paragraphs). */
  blocks: number;
}

/**
 * Writes a note of about `chars` characters straight into the notebook's
 * IndexedDB, with its blocks, in the row shape of `src/db/schema.ts`: how a
 * database written before the size limits holds it. The page must be on the
 * app's origin with the schema created and no app running (no core worker
 * holding the database). The body is made inside the page, so 100 MB never
 * crosses the DevTools protocol: `head` opens it, `tail` closes it, and
 * paragraphs of filler (single lines, a blank line between) fill the rest.
 * Block hashes are left empty: the app re-hashes stored blocks before
 * comparing them.
 */
export async function writeLegacyHugeNote(
  page: Page,
  note: { title: string; chars: number; head: string; tail: string },
): Promise<LegacyHugeNote> {
  return page.evaluate(
    ({ title, chars, head, tail }) =>
      new Promise<LegacyHugeNote>((resolve, reject) => {
        const noteId = `note_legacy_huge_${chars}`;
        const paragraphChars = 64 * 1024;
        const filler = 'log line with nothing to find in it. ';
        const paragraphs: string[] = [head];
        let length = head.length + 2 + tail.length;
        for (let index = 1; length < chars; index += 1) {
          const prefix = `Paragraph ${index}: `;
          const size = Math.min(paragraphChars, chars - length);
          const text = (prefix + filler.repeat(Math.ceil(size / filler.length))).slice(0, Math.max(size, 1));
          paragraphs.push(text);
          length += text.length + 2;
        }
        paragraphs.push(tail);
        const body = paragraphs.join('\n\n');
        const now = '2024-01-01T00:00:00.000Z';
        const open = indexedDB.open('notes-agent');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const transaction = db.transaction(['notes', 'blocks'], 'readwrite');
          transaction.objectStore('notes').put({
            note_id: noteId,
            title,
            folder: '',
            body,
            tags: [],
            version: 1,
            created_at: now,
            updated_at: now,
            deleted_at: null,
            trashed: 0,
          });
          const blocks = transaction.objectStore('blocks');
          paragraphs.forEach((text, position) =>
            blocks.put({
              block_id: `block_legacy_${position}`,
              note_id: noteId,
              type: 'paragraph',
              position,
              text,
              start_line: position * 2,
              end_line: position * 2,
              hash: '',
            }),
          );
          transaction.oncomplete = () => {
            db.close();
            resolve({ noteId, length: body.length, blocks: paragraphs.length });
          };
          transaction.onerror = () => reject(transaction.error);
          transaction.onabort = () => reject(transaction.error);
        };
      }),
    note,
  );
}

/** The lengths of the drafts the core keeps of a note: only numbers cross the DevTools protocol, never a huge text. */
export function storedDraftLengths(page: Page, noteId: string): Promise<number[]> {
  return page.evaluate(
    (id) =>
      new Promise<number[]>((resolve, reject) => {
        const open = indexedDB.open('notes-agent');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction('drafts').objectStore('drafts').index('note_id').getAll(id);
          all.onsuccess = () => {
            open.result.close();
            resolve((all.result as Array<{ body: string }>).map((draft) => draft.body.length));
          };
          all.onerror = () => reject(all.error);
        };
      }),
    noteId,
  );
}

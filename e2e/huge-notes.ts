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

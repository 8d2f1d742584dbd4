import { strToU8, zipSync } from 'fflate';
import type { Page } from '@playwright/test';
import { expect } from '../fixtures';

/** A vault's files by their paths in the archive: a note's text, or a picture's bytes. */
export type VaultFiles = Record<string, string | Uint8Array>;

function vaultZip(files: VaultFiles): Uint8Array {
  return zipSync(
    Object.fromEntries(
      Object.entries(files).map(([path, content]) => [
        path,
        typeof content === 'string' ? strToU8(content) : content,
      ]),
    ),
  );
}

/**
 * Imports a vault as one zip through the import dialog, and waits until the
 * notebook holds `total` notes.
 */
export async function importVault(page: Page, files: VaultFiles, total: number): Promise<void> {
  await page
    .getByTestId('import-zip-input')
    .setInputFiles({ name: 'vault.zip', mimeType: 'application/zip', buffer: Buffer.from(vaultZip(files)) });
  await page.getByTestId('import-dialog').getByTestId('import-start').click();
  await expect(page.getByTestId('note-count')).toHaveAttribute('data-total', String(total));
}

/** Imports a zip's bytes through the import dialog, returning once the dialog has closed (the job runs on). */
export async function importZip(page: Page, name: string, data: Uint8Array): Promise<void> {
  await page
    .getByTestId('import-zip-input')
    .setInputFiles({ name, mimeType: 'application/zip', buffer: Buffer.from(data) });
  const dialog = page.getByTestId('import-dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByTestId('import-start').click();
  await expect(dialog).toBeHidden();
}

/**
 * Imports a vault of notes and pictures as one zip, returning once the dialog has closed (the
 * job runs on: its toast says what came in).
 */
export async function importVaultZip(page: Page, files: VaultFiles): Promise<void> {
  await importZip(page, 'vault.zip', vaultZip(files));
}

/** PNG bytes of `width` × `height` pixels, encoded by the page's canvas: a vault's picture. */
export async function pngOf(page: Page, width: number, height: number): Promise<Uint8Array> {
  const bytes = await page.evaluate(
    async ({ width, height }) => {
      const canvas = new OffscreenCanvas(width, height);
      const context = canvas.getContext('2d')!;
      context.fillStyle = '#2e86c1';
      context.fillRect(0, 0, width, height);
      const blob = await canvas.convertToBlob({ type: 'image/png' });
      return [...new Uint8Array(await blob.arrayBuffer())];
    },
    { width, height },
  );
  return new Uint8Array(bytes);
}

/** A note's file: its title in the front matter, then the body. */
export function noteFile(title: string, body: string): string {
  return `---\ntitle: ${title}\n---\n${body}\n`;
}

/** Notes arrive faster through an import than typed one by one: [title, body] pairs. */
export async function importNotes(
  page: Page,
  notes: ReadonlyArray<readonly [string, string]>,
): Promise<void> {
  const files = Object.fromEntries(
    notes.map(([title, body], i) => [`vault/n-${i}.md`, noteFile(title, body)]),
  );
  await importVault(page, files, notes.length);
}

import { strToU8, zipSync } from 'fflate';
import type { Page } from '@playwright/test';
import { expect } from '../fixtures';

/**
 * Imports Markdown files (path in the archive → text) as one zip through the
 * import dialog, and waits until the notebook holds `total` notes.
 */
export async function importVault(page: Page, files: Record<string, string>, total: number): Promise<void> {
  const entries = Object.fromEntries(Object.entries(files).map(([path, text]) => [path, strToU8(text)]));
  await page
    .getByTestId('import-zip-input')
    .setInputFiles({ name: 'vault.zip', mimeType: 'application/zip', buffer: Buffer.from(zipSync(entries)) });
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

import { strToU8, zipSync } from 'fflate';
import { expect, openApp, test } from './fixtures';

/** A vault big enough that the import is still writing when the page closes. */
function bigVault(count = 500): Buffer {
  const files: Record<string, Uint8Array> = {};
  for (let i = 0; i < count; i++) {
    const body = Array.from(
      { length: 40 },
      (_, p) => `Paragraph ${p} of note ${i}, see [[Note ${i + 1}]].`,
    ).join('\n\n');
    files[`vault/note-${i}.md`] = strToU8(`---\ntitle: Note ${i}\n---\n# Note ${i}\n\n${body}\n`);
  }
  return Buffer.from(zipSync(files));
}

test('a page closed mid-import leaves no partial notebook, and the next start says so once', async ({
  context,
}) => {
  test.setTimeout(120_000);
  const page = await context.newPage();
  await openApp(page);
  await page
    .getByTestId('import-zip-input')
    .setInputFiles({ name: 'vault.zip', mimeType: 'application/zip', buffer: bigVault() });
  await page.getByTestId('import-dialog').getByTestId('import-start').click();
  const job = page.getByTestId('job-item').first();
  // Some notes are written (the progress bar moved), the import is not done.
  await expect(job.getByTestId('job-progress')).toHaveAttribute('data-percent', /^(?!0$)\d/);
  await expect(job).toHaveAttribute('data-status', 'running');
  await page.close();

  const next = await context.newPage();
  await openApp(next);
  const notice = next
    .getByTestId('toast')
    .filter({ hasText: 'The import of vault.zip was interrupted; nothing was imported.' });
  await expect(notice).toBeVisible();
  await expect(next.getByTestId('note-item')).toHaveCount(0);

  // Told once: remembered, so another start stays quiet.
  const told = await next.evaluate(() => localStorage.getItem('notesagent.import-interrupted-told'));
  expect(JSON.parse(told ?? '[]')).toHaveLength(1);
  await next.reload();
  await expect(next.getByTestId('note-list')).toBeVisible();
  await expect(next.getByTestId('note-item')).toHaveCount(0);
  await expect(next.getByTestId('toast').filter({ hasText: 'interrupted' })).toHaveCount(0);
});

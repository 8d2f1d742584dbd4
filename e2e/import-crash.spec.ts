import { strToU8, zipSync } from 'fflate';
import { createNote, expect, openApp, storedBody, test } from './fixtures';

/** A vault big enough that the import is still writing when the page closes; `first` leads it. */
function bigVault(count = 500, first: Record<string, string> = {}): Buffer {
  const files: Record<string, Uint8Array> = {};
  for (const [path, text] of Object.entries(first)) files[path] = strToU8(text);
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
  // Some notes are written (the progress bar moved), the import is not done. On a busy machine
  // reading the archive alone can take longer than the default wait.
  await expect(job.getByTestId('job-progress')).toHaveAttribute('data-percent', /^(?!0$)\d/, {
    timeout: 60_000,
  });
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

test('a page closed mid-way through an update import puts back the notes it overwrote, and says so', async ({
  context,
}) => {
  test.setTimeout(120_000);
  const page = await context.newPage();
  await openApp(page);
  await createNote(page, 'Plan', 'my plan, typed here');
  const noteId = await page.evaluate(() => localStorage.getItem('notesagent.last-note'));
  expect(noteId).toMatch(/^note_/);
  // The archive's first note carries this note's id: the import overwrites it, then goes on writing.
  const vault = bigVault(500, {
    'vault/plan.md': `---\ntitle: Plan from the archive\nnote_id: ${noteId}\n---\nthe archive's plan\n`,
  });
  await page
    .getByTestId('import-zip-input')
    .setInputFiles({ name: 'vault.zip', mimeType: 'application/zip', buffer: vault });
  await page.getByTestId('import-dialog').getByTestId('import-on-duplicate-update').check();
  await page.getByTestId('import-dialog').getByTestId('import-start').click();
  // The import wrote over the note (read from IndexedDB), and is still running.
  await expect.poll(() => storedBody(page, noteId!), { timeout: 60_000 }).toBe("the archive's plan\n");
  await expect(page.getByTestId('job-item').first()).toHaveAttribute('data-status', 'running');
  await page.close();

  const next = await context.newPage();
  await openApp(next);
  await expect(
    next
      .getByTestId('toast')
      .filter({ hasText: 'The import of vault.zip was interrupted; nothing was imported.' })
      .filter({ hasText: '1 note it had changed was put back as it was.' }),
  ).toBeVisible();
  const items = next.getByTestId('note-item');
  await expect(items).toHaveCount(1);
  await items.click();
  await expect(next.getByTestId('note-title')).toHaveValue('Plan');
  await expect(next.getByTestId('note-body')).toHaveValue('my plan, typed here');
});

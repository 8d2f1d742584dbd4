import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { strToU8, zipSync } from 'fflate';
import { createNote, expect, openApp, test } from './fixtures';
import { importZip } from './harness/vault-import';

// Small things QA saw: the job panel left open over the page, the export menu deaf to
// Escape and blank on its first click, a phone told to press Alt+N, a model refusal naming
// an id the list does not show, and a damaged MP3 told to try MP3.

function overlaps(a: { x: number; y: number; width: number; height: number }, b: typeof a): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

test('once every job has finished the job panel folds to its header, and the finished row says how it ended', async ({
  page,
}) => {
  await openApp(page);
  await importZip(
    page,
    'vault.zip',
    zipSync({
      'vault/Target.md': strToU8('# Target\n\nThe note others point to.\n'),
      'vault/Source.md': strToU8('# Source\n\nSee [[Target]].\n'),
    }),
  );
  const panel = page.getByTestId('job-panel');
  const job = panel.getByTestId('job-item');
  await expect(job).toHaveAttribute('data-status', 'completed');

  // Folded: the header says what is there; the rows are out of the way.
  await expect(panel.getByTestId('job-panel-count')).toHaveText('1 finished');
  await expect(job).toBeHidden();
  await page.getByTestId('note-item').filter({ hasText: 'The note others point to' }).click();
  const backlink = page.getByTestId('backlinks').getByTestId('backlink');
  await expect(backlink).toHaveText(/Source/);
  expect(overlaps((await backlink.boundingBox())!, (await panel.boundingBox())!)).toBe(false);

  // Opened on request, the finished row reads as done: what it imported, not a bare "×".
  const toggle = panel.getByTestId('job-panel-toggle');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(job).toBeVisible();
  await expect(job.getByTestId('job-message')).toContainText('Import finished: 2 new, 0 updated, 0 skipped');
  await toggle.click();
  await expect(job).toBeHidden();
});

test('a failed job keeps the panel open, so its reason is read', async ({ page }) => {
  await openApp(page);
  await importZip(page, 'not-a-zip.zip', strToU8('this is not a zip file'));
  const panel = page.getByTestId('job-panel');
  const job = panel.getByTestId('job-item');
  await expect(job).toHaveAttribute('data-status', 'failed');
  await expect(job).toBeVisible();
  await expect(panel.getByTestId('job-panel-count')).toHaveText('1 failed');
});

test('the export menu shows at once, saying it is loading, while its code is still on the way', async ({
  page,
}) => {
  // Hold the menu's code until the loading state has been seen.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/ExportFormats-[^/]*\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  await openApp(page);
  await createNote(page, 'Exported', 'Some text');

  const button = page.getByTestId('export-note');
  await button.click();
  await expect(page.getByTestId('export-menu-loading')).toBeVisible();
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  release();
  await expect(page.getByTestId('export-format-html')).toBeVisible();
  await expect(page.getByTestId('export-menu-loading')).toHaveCount(0);
});

test('Escape closes the export menu and gives the keyboard back to its button', async ({ page }) => {
  await openApp(page);
  await createNote(page, 'Exported', 'Some text');
  const button = page.getByTestId('export-note');
  await button.click();
  const menu = page.getByRole('menu');
  await expect(menu.getByTestId('export-format-html')).toBeVisible();
  await expect(menu.getByRole('menuitem').first()).toBeFocused();

  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  await expect(button).toBeFocused();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the empty note list names the + button, not a keyboard shortcut', async ({ page }) => {
    await openApp(page);
    const list = page.getByTestId('note-list');
    await expect(list).toContainText('No notes yet. Tap + at the top to create one.');
    await expect(list).not.toContainText('Alt+N');
    await expect(page.getByTestId('topbar-new-note')).toBeVisible();
  });
});

test('a model this GPU cannot run names its twin as the list shows it, not by its id', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-nav-local-models').click();
  const section = page.getByTestId('local-models-settings');
  const row = section.locator('[data-testid="local-model"][data-model="SmolLM2-360M-Instruct-q4f16_1-MLC"]');
  const refusal = row.getByTestId('local-model-refusal');
  await expect(refusal).toContainText('Use SmolLM2 360M Instruct (q4f32) instead.');
  await expect(refusal).not.toContainText('-MLC');
});

test('a damaged MP3 is said to be possibly damaged, and the formats named are the drop zone’s', async ({
  page,
}) => {
  await openApp(page);
  await page.getByTestId('nav-transcription').click();
  const corrupt = readFileSync(fileURLToPath(new URL('./audio/corrupt.mp3', import.meta.url)));
  await page
    .getByTestId('audio-file-input')
    .setInputFiles({ name: 'lecture.mp3', mimeType: 'audio/mpeg', buffer: corrupt });
  const detail = page.getByTestId('transcription-detail');
  await expect(detail).toHaveAttribute('data-status', 'failed', { timeout: 60_000 });
  const error = detail.getByTestId('transcription-error');
  await expect(error).toHaveAttribute('data-code', 'UNSUPPORTED_AUDIO_FORMAT');
  await expect(error).toContainText('the file may be damaged');
  await expect(error).toContainText('WAV, MP3, M4A/AAC, OGG/Opus, WebM or FLAC');
  await expect(error).toContainText('Try another copy of the file');
});

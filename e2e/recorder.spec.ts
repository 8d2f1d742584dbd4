// @ts-expect-error plain ESM helper shared with playwright.config.ts
import { CHROMIUM_ARGS, findSystemChromium } from '../scripts/system-chromium.mjs';
import { expect, openApp, test } from './fixtures';

// Chromium's fake capture device (a beep) stands in for a microphone, with the
// permission granted; transcription.spec.ts covers the refused permission.
test.use({
  permissions: ['microphone'],
  launchOptions: {
    executablePath: findSystemChromium(),
    args: [...CHROMIUM_ARGS, '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'],
  },
});

test('a recording shows its elapsed time, stops, and is uploaded as a transcription', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('nav-transcription').click();
  await page.getByTestId('recorder-start').click();
  // The clock moves: past 0:00, whichever second a busy machine's timer next shows.
  const elapsed = page.getByTestId('recorder-elapsed');
  await expect(elapsed).toHaveText(/^Recording \d+:\d\d$/);
  await expect(elapsed).not.toHaveText('Recording 0:00');
  await page.getByTestId('recorder-stop').click();
  const job = page.getByTestId('transcription-job').first();
  await expect(job).toContainText(/^Recording \d{4}-\d{2}-\d{2} \d{2}-\d{2}-\d{2}\.webm/);
  await expect(page.getByTestId('audio-element')).toBeVisible();
});

test('leaving Transcription while recording keeps the recording and transcribes it', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('nav-transcription').click();
  await page.getByTestId('recorder-start').click();
  await expect(page.getByTestId('recorder-elapsed')).not.toHaveText('Recording 0:00');

  // Off to the notes mid-lecture: the microphone stops, the recording is kept.
  await page.getByTestId('nav-all').click();
  const toast = page.getByText(
    'The recording stopped when you left Transcription; it was kept and is being transcribed.',
  );
  await expect(toast).toBeVisible();
  await page.getByRole('button', { name: 'Open', exact: true }).click();

  const job = page.getByTestId('transcription-job').first();
  await expect(job).toContainText(/^Recording \d{4}-\d{2}-\d{2} \d{2}-\d{2}-\d{2}\.webm/);
  await expect(page.getByTestId('transcription-detail-name')).toHaveText(/^Recording .*\.webm$/);
  await expect(page.getByTestId('audio-element')).toBeVisible();
  await expect(page.getByTestId('recorder-start')).toBeEnabled();
});

test('closing the tab while recording asks first', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('nav-transcription').click();
  await page.getByTestId('recorder-start').click();
  const elapsed = page.getByTestId('recorder-elapsed');
  await expect(elapsed).not.toHaveText('Recording 0:00');

  const asked = page.waitForEvent('dialog');
  await page.close({ runBeforeUnload: true });
  const dialog = await asked;
  expect(dialog.type()).toBe('beforeunload');
  await dialog.dismiss();
  expect(page.isClosed()).toBe(false);
  // Still recording.
  await expect(page.getByTestId('recorder-stop')).toBeVisible();
  await expect(elapsed).toBeVisible();
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('a recording made on a Chinese page is named in Chinese', async ({ page }) => {
    await openApp(page);
    await page.getByTestId('nav-transcription').click();
    await page.getByTestId('recorder-start').click();
    await expect(page.getByTestId('recorder-elapsed')).not.toHaveText('正在录音 0:00');
    await page.getByTestId('recorder-stop').click();
    const job = page.getByTestId('transcription-job').first();
    await expect(job).toContainText(/^录音 \d{4}-\d{2}-\d{2} \d{2}-\d{2}-\d{2}\.webm/);
    await expect(page.getByTestId('transcription-detail-name')).toHaveText(/^录音 .*\.webm$/);
    await expect(page.getByTestId('transcription-view')).not.toContainText('Recording');
  });
});

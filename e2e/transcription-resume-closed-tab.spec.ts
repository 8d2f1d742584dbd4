import type { BrowserContext } from '@playwright/test';
import { buildTinyWhisper } from '../src/media/transformers/__fixtures__/tiny-whisper/tiny-whisper';
import { expect, openApp, test } from './fixtures';
import { useTranscriptionModelHost } from './harness/chain-steps';
import { fulfilModelFile } from './harness/model-host';
import { tonesWav } from './harness/wav';

// A student closes the tab while a long lecture transcribes. Reopening the app goes on with
// that transcription from where its kept transcript ends, instead of failing it (and a retry
// starting again from zero). The model is the generated tiny Whisper (see
// transcription.spec.ts): every 30 s window says "hello tiny whisper." then "world again,".
const MODEL_ID = 'onnx-community/whisper-tiny';
const MODEL_HOST = '/models/';
const files = buildTinyWhisper();

async function serveTinyWhisper(context: BrowserContext): Promise<void> {
  await context.route(`**${MODEL_HOST}**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    const prefix = `${MODEL_HOST}${MODEL_ID}/`;
    return fulfilModelFile(route, files[path.startsWith(prefix) ? path.slice(prefix.length) : '']);
  });
}

test('a transcription cut short by a closed tab goes on when the app is opened again, keeping what was done', async ({
  page,
  context,
  requestLog,
}) => {
  test.setTimeout(900_000);
  await serveTinyWhisper(context);
  await openApp(page);
  await useTranscriptionModelHost(page, MODEL_HOST);
  await page.getByTestId('nav-transcription').click();
  // 40 s: two 30 s windows (0-30, 25-40), so the tab closes while the second is heard.
  await page
    .getByTestId('audio-file-input')
    .setInputFiles({ name: 'lecture.wav', mimeType: 'audio/wav', buffer: tonesWav([[220, 40]], 3000) });
  const detail = page.getByTestId('transcription-detail');
  await expect(detail.getByTestId('segment').first()).toContainText('hello tiny whisper.', {
    timeout: 400_000,
  });
  await expect(detail).toHaveAttribute('data-status', 'running');
  const kept = await detail.getByTestId('segment').allTextContents();
  expect(kept.length).toBeGreaterThan(0);

  await page.close();

  const reopened = await context.newPage();
  await openApp(reopened);
  await reopened.getByTestId('nav-transcription').click();
  await reopened.getByTestId('transcription-job').filter({ hasText: 'lecture.wav' }).click();
  const again = reopened.getByTestId('transcription-detail');
  // It goes on (not "Failed · the job was interrupted"), says from where, and shows what was done.
  await expect(again.getByTestId('transcription-resumed')).toHaveText(/^Resuming from \d+:\d\d$/, {
    timeout: 120_000,
  });
  await expect(again.getByTestId('segment').first()).toContainText('hello tiny whisper.');

  await expect(again).toHaveAttribute('data-status', 'completed', { timeout: 400_000 });
  const segments = await again.getByTestId('segment').allTextContents();
  // The segments done before the tab closed lead the transcript, as they were; then each
  // window's two phrases once: none twice and none missing at the seam.
  expect(segments.slice(0, kept.length)).toEqual(kept);
  expect(new Set(segments).size).toBe(segments.length);
  const hello = segments.filter((text) => text.includes('hello tiny whisper.'));
  expect(hello.length).toBeGreaterThanOrEqual(2);
  expect(segments.filter((text) => text.includes('world again,'))).toHaveLength(hello.length);
  await expect(again.getByTestId('transcription-resumed')).toHaveCount(0);
  expect(requestLog.foreign()).toEqual([]);
});

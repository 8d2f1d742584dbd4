import type { Page, Route } from '@playwright/test';
import { buildTinyWhisper } from '../src/media/transformers/__fixtures__/tiny-whisper/tiny-whisper';
import { expect, openApp, test } from './fixtures';
import { useTranscriptionModelHost } from './harness/chain-steps';
import { fulfilModelFile } from './harness/model-host';
import { tonesWav } from './harness/wav';

// What a student meets around a transcription job rather than in it: leaving the page
// while a lecture transcribes, closing the tab meanwhile, a new job on a phone and with
// the keyboard, and a file whose audio cannot be read. The model is the generated tiny
// Whisper (see transcription.spec.ts), served under the app's /models/ host.
const MODEL_ID = 'onnx-community/whisper-tiny';
const MODEL_HOST = '/models/';
const files = buildTinyWhisper();

/** Serves the tiny Whisper; while `hold()` is true its weights are never answered (a download that does not end). */
async function serveTinyWhisper(page: Page, hold: () => boolean = () => false): Promise<Route[]> {
  const held: Route[] = [];
  await page.context().route(`**${MODEL_HOST}**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    const prefix = `${MODEL_HOST}${MODEL_ID}/`;
    const name = path.startsWith(prefix) ? path.slice(prefix.length) : '';
    if (hold() && name.endsWith('.onnx')) {
      held.push(route);
      return Promise.resolve();
    }
    return fulfilModelFile(route, files[name]);
  });
  return held;
}

/** Settings: the tiny model from this app's /models/, never downloaded from elsewhere; then Transcription. */
async function useTinyModel(page: Page): Promise<void> {
  await useTranscriptionModelHost(page, MODEL_HOST);
  await page.getByTestId('nav-transcription').click();
}

/** `seconds` of a quiet 220 Hz tone as 16 kHz mono 16-bit WAV. */
function toneWav(seconds: number): Buffer {
  return tonesWav([[220, seconds]], 3000);
}

/** A WAV whose audio is IMA ADPCM (format tag 0x11): a dictaphone's, which only PCM and float readers refuse. */
function adpcmWav(): Buffer {
  const data = Buffer.alloc(4000, 0x11);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(0x11, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(16_000, 24);
  header.writeUInt32LE(8_000, 28);
  header.writeUInt16LE(256, 32);
  header.writeUInt16LE(4, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

test('leaving Transcription while a lecture transcribes and coming back shows its transcript and audio', async ({
  page,
  requestLog,
}) => {
  test.setTimeout(240_000);
  await serveTinyWhisper(page);
  await openApp(page);
  await useTinyModel(page);
  // 40 s: two 30 s windows, so the first segments arrive while the job still runs.
  await page
    .getByTestId('audio-file-input')
    .setInputFiles({ name: 'lecture.wav', mimeType: 'audio/wav', buffer: toneWav(40) });
  const detail = page.getByTestId('transcription-detail');
  await expect(detail.getByTestId('segment').first()).toContainText('hello tiny whisper.', {
    timeout: 150_000,
  });

  // A note to jot something down, then back.
  await page.getByTestId('nav-all').click();
  await expect(page.getByTestId('transcription-view')).toHaveCount(0);
  await page.getByTestId('nav-transcription').click();

  // The same job is shown, with what was transcribed so far (while away too) and its audio.
  await expect(detail.getByTestId('segment').first()).toContainText('hello tiny whisper.');
  await expect(detail.getByTestId('audio-element')).toBeVisible();
  await expect(detail.getByTestId('transcription-detail-name')).toHaveText('lecture.wav');
  await expect(detail).toHaveAttribute('data-status', 'completed', { timeout: 150_000 });
  const segments = detail.getByTestId('segment');
  expect(await segments.count()).toBeGreaterThanOrEqual(4);
  await expect(segments.nth(1)).toContainText('world again,');
  await expect(detail.getByTestId('transcript-note-form')).toBeVisible();
  expect(requestLog.foreign()).toEqual([]);
});

test('closing the tab while a transcription runs asks first; once it has ended, it does not', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const held = await serveTinyWhisper(page, () => true);
  await openApp(page);
  await useTinyModel(page);
  await page
    .getByTestId('audio-file-input')
    .setInputFiles({ name: 'seminar.wav', mimeType: 'audio/wav', buffer: toneWav(5) });
  const detail = page.getByTestId('transcription-detail');
  // The model's weights never arrive: the job stays running.
  await expect.poll(() => held.length, { timeout: 60_000 }).toBeGreaterThan(0);
  await expect(detail).toHaveAttribute('data-status', 'running');

  const asked = page.waitForEvent('dialog');
  await page.close({ runBeforeUnload: true });
  const dialog = await asked;
  expect(dialog.type()).toBe('beforeunload');
  await dialog.dismiss();
  // Stayed: the job runs on.
  expect(page.isClosed()).toBe(false);
  await expect(detail).toHaveAttribute('data-status', 'running');

  // Cancelled, the job has ended: closing needs no more asking.
  await detail.getByTestId('transcription-cancel').click();
  await expect(detail).toHaveAttribute('data-status', 'cancelled');
  const dialogs: string[] = [];
  page.on('dialog', (next) => {
    dialogs.push(next.type());
    void next.accept();
  });
  await page.close({ runBeforeUnload: true });
  await expect.poll(() => page.isClosed()).toBe(true);
  expect(dialogs).toEqual([]);
});

test.describe('on a phone, in Chinese, keyboard only', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'zh-CN' });

  test('a picked file that cannot be read: its job is in view and focused, says why, and can only be deleted', async ({
    page,
  }) => {
    await openApp(page);
    await page.getByRole('button', { name: '打开菜单' }).click();
    await page.getByTestId('nav-transcription').click();
    await expect(page.locator('#sidebar')).toBeHidden();

    // "choose a file" with the keyboard.
    const choose = page.getByTestId('audio-drop-zone').getByRole('button', { name: '选择文件' });
    await choose.focus();
    const chooser = page.waitForEvent('filechooser');
    await page.keyboard.press('Enter');
    await (await chooser).setFiles({ name: 'dictaphone.wav', mimeType: 'audio/wav', buffer: adpcmWav() });

    const detail = page.getByTestId('transcription-detail');
    await expect(detail).toHaveAttribute('data-status', 'failed', { timeout: 60_000 });
    // The focus moved to the new job (the disabled picker had dropped it on <body>), and it is on screen.
    await expect
      .poll(() =>
        page.evaluate(() => document.activeElement?.closest('[data-testid="transcription-detail"]') !== null),
      )
      .toBe(true);
    const error = detail.getByTestId('transcription-error');
    await expect(error).toHaveAttribute('data-code', 'UNSUPPORTED_AUDIO_FORMAT');
    await expect(error).toContainText('无法读取此音频');
    await expect(error).toBeInViewport();
    // The core's English explanation is there for whoever opens it, not mixed into the Chinese page.
    await expect(error.getByTestId('transcription-error-detail')).toBeHidden();
    await error.getByText('详细信息').click();
    await expect(error.getByTestId('transcription-error-detail')).toContainText('WAV');

    // The same bytes cannot be read again: no Retry, no dead player, no promise of segments to come.
    await expect(detail.getByTestId('transcription-retry')).toHaveCount(0);
    await expect(detail.getByTestId('audio-element')).toHaveCount(0);
    await expect(detail.getByText('转写出的分段会显示在这里。')).toHaveCount(0);
    const remove = detail.getByTestId('transcription-delete');
    await expect(remove).toBeInViewport({ ratio: 1 });

    await remove.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('transcription-job')).toHaveCount(0);
    // The focus is not lost with the deleted job.
    await expect(page.getByRole('heading', { name: '转写任务' })).toBeFocused();
  });
});

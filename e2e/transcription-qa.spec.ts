import type { Page } from '@playwright/test';
import { expect, openApp, test } from './fixtures';
import { serveTinyWhisper, useTranscriptionModelHost } from './harness/chain-steps';
import { tonesWav } from './harness/wav';

// A Chinese student's pass over the Transcription page (zh-CN UI): a damaged download
// picked with the keyboard, and a lecture cancelled with the keyboard. The model is the
// generated tiny Whisper (see transcription.spec.ts), served under the app's /models/ host.
const MODEL_ID = 'onnx-community/whisper-tiny';
const MODEL_HOST = '/models/';
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } as const;

test.use({ locale: 'zh-CN' });

async function openTranscription(page: Page): Promise<void> {
  const menu = page.getByRole('button', { name: '打开菜单' });
  if (await menu.isVisible()) await menu.click();
  await page.getByTestId('nav-transcription').click();
  await expect(page.getByTestId('transcription-view')).toBeVisible();
}

/** Settings: the model from this app's /models/, never downloaded from elsewhere; then Transcription. */
async function useTinyModel(page: Page): Promise<void> {
  await useTranscriptionModelHost(page, MODEL_HOST);
  await openTranscription(page);
}

/** What has the keyboard focus, by test id (or tag when it has none). */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement;
    return element?.getAttribute('data-testid') ?? element?.tagName.toLowerCase() ?? 'none';
  });
}

test.describe('on a phone', () => {
  test.use(PHONE);

  test('a damaged audio file is refused beside the picker, in Chinese, naming it, with what to do next', async ({
    page,
  }) => {
    await openApp(page);
    await openTranscription(page);

    // Keyboard only: "选择文件" opens the picker; the file chosen is an MP3 that is not one.
    const choose = page.getByTestId('audio-drop-zone').getByRole('button', { name: '选择文件' });
    await choose.focus();
    const chooser = page.waitForEvent('filechooser');
    await page.keyboard.press('Enter');
    await (
      await chooser
    ).setFiles({
      name: '第三讲.mp3',
      mimeType: 'audio/mpeg',
      buffer: Buffer.from('not really an mp3 at all'),
    });

    const refused = page.getByTestId('audio-upload-refused');
    await expect(refused).toContainText('无法把“第三讲.mp3”读取为音频：文件可能已损坏，或没有下载完整。');
    await expect(refused).toContainText('请换一个文件，或先把它转换为 WAV 或 MP3 再上传。');
    await expect(refused).toBeInViewport();
    // The core's English explanation is one click away, not in the sentence.
    await expect(refused.getByTestId('audio-upload-refused-detail')).toBeHidden();
    await expect.poll(() => refused.innerText()).not.toContain('This file');
    await expect(page.getByTestId('transcription-job')).toHaveCount(0);
    // Ready for the next file: the focus is back on the picker's button, not lost on the page.
    await expect(choose).toBeEnabled();
    await expect.poll(() => choose.evaluate((button) => button === document.activeElement)).toBe(true);

    // A good file clears it.
    await page.getByTestId('audio-file-input').setInputFiles({
      name: '第三讲.wav',
      mimeType: 'audio/wav',
      buffer: tonesWav([[220, 2]], 3000),
    });
    await expect(page.getByTestId('transcription-job')).toHaveCount(1);
    await expect(refused).toHaveCount(0);
  });
});

test('a lecture cancelled with the keyboard leaves the focus on “重新转写”, and says nothing in English', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await serveTinyWhisper(page, MODEL_HOST, MODEL_ID);
  await openApp(page);
  await useTinyModel(page);
  // 40 s: two windows of the tiny model, long enough to be cancelled while running.
  await page.getByTestId('audio-file-input').setInputFiles({
    name: 'lecture.wav',
    mimeType: 'audio/wav',
    buffer: tonesWav([[220, 40]], 3000),
  });
  const detail = page.getByTestId('transcription-detail');
  await expect(detail).toHaveAttribute('data-status', 'running', { timeout: 60_000 });
  // The new job takes the focus once it is shown; the student tabs on from there.
  await expect.poll(() => focused(page)).toBe('transcription-detail-name');

  await page.keyboard.press('Tab');
  await expect.poll(() => focused(page)).toBe('transcription-cancel');
  await page.keyboard.press('Enter');
  // A cancel lands between the model's steps, which a loaded two-core machine makes slow.
  await expect(detail).toHaveAttribute('data-status', 'cancelled', { timeout: 90_000 });
  await expect.poll(() => focused(page)).toBe('transcription-retry');
  await expect(page.getByTestId('transcription-retry')).toHaveText('重新转写');
  const error = detail.getByTestId('transcription-error');
  await expect(error).toHaveText('转写已取消。');
  await expect(error.getByTestId('transcription-error-detail')).toHaveCount(0);

  // Enter again runs it again, and the keyboard stays with the job.
  await page.keyboard.press('Enter');
  await expect(detail).toHaveAttribute('data-status', /queued|running/);
  await expect.poll(() => focused(page)).toBe('transcription-detail-name');
  await page.getByTestId('transcription-cancel').click();
  await expect(detail).toHaveAttribute('data-status', 'cancelled', { timeout: 90_000 });
});

import type { Page } from '@playwright/test';
import {
  buildTinyWhisper,
  TRADITIONAL_CHINESE_TINY_WHISPER_SCRIPT,
} from '../src/media/transformers/__fixtures__/tiny-whisper/tiny-whisper';
import { expect, openApp, test } from './fixtures';
import { useTranscriptionModelHost } from './harness/chain-steps';
import { fulfilModelFile } from './harness/model-host';
import { tonesWav } from './harness/wav';

// A Chinese student (zh-CN UI) who transcribes every lecture in 中文. The model is the
// generated tiny Whisper (see transcription.spec.ts), served under the app's /models/ host.
// For the failure its generation config gives 中文 a token id that is no integer: the
// model loads, then transformers.js throws inside the first window, the way a broken
// decoder or a worker that runs out of memory does. Short audio: one window.
const MODEL_ID = 'onnx-community/whisper-tiny';
const MODEL_HOST = '/models/';

test.use({ locale: 'zh-CN' });

async function openTranscription(page: Page): Promise<void> {
  await page.getByTestId('nav-transcription').click();
  await expect(page.getByTestId('transcription-view')).toBeVisible();
}

/** The tiny model, with 中文 made to break the decoder. */
async function serveBrokenChineseWhisper(page: Page): Promise<void> {
  const files = buildTinyWhisper();
  const config = JSON.parse(String(files['generation_config.json'])) as {
    lang_to_id: Record<string, number>;
  };
  config.lang_to_id['<|zh|>'] = 0.5;
  const broken: Record<string, string | Uint8Array> = {
    ...files,
    'generation_config.json': JSON.stringify(config),
  };
  await page.context().route(`**${MODEL_HOST}**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    const prefix = `${MODEL_HOST}${MODEL_ID}/`;
    return fulfilModelFile(route, path.startsWith(prefix) ? broken[path.slice(prefix.length)] : undefined);
  });
}

/** The tiny model under every model id, saying 這是語音識別。 as Whisper asked for zh often writes it. */
async function serveTraditionalWhisper(page: Page): Promise<void> {
  const files = buildTinyWhisper({ detectLanguage: 'zh', script: TRADITIONAL_CHINESE_TINY_WHISPER_SCRIPT });
  await page.context().route(`**${MODEL_HOST}**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    const file = /^\/models\/onnx-community\/[\w.-]+\/(.+)$/.exec(path)?.[1];
    return fulfilModelFile(route, file === undefined ? undefined : files[file]);
  });
}

test('the language, model and script chosen for one file are still chosen after a reload; the transcript is in that script', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await serveTraditionalWhisper(page);
  await openApp(page);
  await useTranscriptionModelHost(page, MODEL_HOST);
  await openTranscription(page);
  const language = page.getByTestId('transcription-language');
  const profile = page.getByTestId('transcription-profile');
  const script = page.getByTestId('transcription-script');
  await expect(language).toHaveValue('');
  // A 简体中文 reader gets Chinese in Simplified until choosing otherwise.
  await expect(script).toHaveValue('simplified');
  await language.selectOption('zh');
  await profile.selectOption('whisper-base');
  await script.selectOption('traditional');

  await page.reload();
  await expect(page.getByTestId('note-list')).toBeVisible();
  await openTranscription(page);
  await expect(language).toHaveValue('zh');
  await expect(profile).toHaveValue('whisper-base');
  await expect(script).toHaveValue('traditional');
  // Another language has no Chinese script to choose.
  await language.selectOption('en');
  await expect(script).toBeHidden();
  await language.selectOption('zh');

  // Whisper writes 這是語音識別; the student reads and searches in Simplified.
  await script.selectOption('simplified');
  await page.getByTestId('audio-file-input').setInputFiles({
    name: '第一讲.wav',
    mimeType: 'audio/wav',
    buffer: tonesWav([[220, 3]], 3000),
  });
  const detail = page.getByTestId('transcription-detail');
  await expect(detail).toHaveAttribute('data-status', 'completed', { timeout: 200_000 });
  const segment = detail.getByTestId('segment');
  await expect(segment).toHaveCount(1);
  await expect(segment).toContainText('这是语音识别。');
  await page.getByTestId('transcript-create-note').click();
  await expect(page.getByTestId('note-title')).toHaveValue('第一讲');
  await expect(page.getByTestId('note-body')).toHaveValue(/这是语音识别。/);
  expect(await page.getByTestId('note-body').inputValue()).not.toMatch(/[這語識]/);
});

test('a transcription that fails inside the model says in Chinese where and what to do, the English folded away', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await serveBrokenChineseWhisper(page);
  await openApp(page);
  await useTranscriptionModelHost(page, MODEL_HOST);
  await openTranscription(page);
  await page.getByTestId('transcription-language').selectOption('zh');
  await page.getByTestId('audio-file-input').setInputFiles({
    name: '第五讲.wav',
    mimeType: 'audio/wav',
    buffer: tonesWav([[220, 3]], 3000),
  });

  const detail = page.getByTestId('transcription-detail');
  await expect(detail).toHaveAttribute('data-status', 'failed', { timeout: 200_000 });
  const error = detail.getByTestId('transcription-error');
  await expect(error).toHaveAttribute('data-code', 'TRANSCRIPTION_FAILED');
  const sentence = error.locator('p').first();
  await expect(sentence).toHaveText(
    '语音识别在录音 0:00 附近出错，转写没有完成。请点“重试”；若仍失败，请换一个模型或语言，再转写一次。',
  );
  await expect(detail.getByTestId('transcription-retry')).toHaveText('重试');
  // The core's English explanation is one click away, not in the sentence.
  await expect(error.getByTestId('transcription-error-detail')).toBeHidden();
  await error.getByText('详细信息').click();
  await expect(error.getByTestId('transcription-error-detail')).toContainText('Speech recognition failed');
});

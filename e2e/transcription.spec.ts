import type { Page } from '@playwright/test';
import {
  buildTinyPyannote,
  TINY_PYANNOTE_VOICES,
} from '../src/media/transformers/__fixtures__/tiny-pyannote/tiny-pyannote';
import { buildTinyWhisper } from '../src/media/transformers/__fixtures__/tiny-whisper/tiny-whisper';
import { expect, openApp, test, waitForServiceWorker } from './fixtures';
import { fulfilModelFile } from './harness/model-host';
import { tonesWav } from './harness/wav';

// The model is the tiny Whisper-shaped model the unit tests generate
// (src/media/transformers/__fixtures__/tiny-whisper): real transformers.js loading and
// pipeline code, served from the model host the app is configured with. It
// "says" the same script in every 30 s window: "hello tiny whisper." over
// 0-2 s and "world again," over 2-4.5 s.
const MODEL_ID = 'onnx-community/whisper-tiny';
const MODEL_HOST = '/models/';
const files = buildTinyWhisper();
// The speaker labels model: the tiny pyannote-shaped model (src/media/transformers/__fixtures__/tiny-pyannote),
// served as the catalog's pyannote segmentation 3.0; it hears tones at TINY_PYANNOTE_VOICES as two speakers.
const PYANNOTE_ID = 'onnx-community/pyannote-segmentation-3.0';

/** `seconds` of a quiet 220 Hz tone as 16 kHz mono 16-bit WAV. */
function toneWav(seconds: number): Buffer {
  return tonesWav([[220, seconds]], 3000);
}

/** Serves the tiny model (and `more` models by id) under the model host; anything else there is a real 404. */
async function serveTinyWhisper(
  page: Page,
  more: Record<string, Record<string, string | Uint8Array>> = {},
): Promise<string[]> {
  const served: string[] = [];
  const models: Record<string, Record<string, string | Uint8Array>> = { [MODEL_ID]: files, ...more };
  await page.context().route(`**${MODEL_HOST}**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    const model = Object.keys(models).find((id) => path.startsWith(`${MODEL_HOST}${id}/`));
    const name = model === undefined ? '' : path.slice(`${MODEL_HOST}${model}/`.length);
    const file = model === undefined ? undefined : models[model]?.[name];
    if (file !== undefined) served.push(model === MODEL_ID ? name : `${model}/${name}`);
    return fulfilModelFile(route, file);
  });
  return served;
}

interface Snapshot {
  status: string | null;
  modelLoading: string | null;
  progress: string | null;
  segments: number;
}

/** Records what the job's detail shows after every DOM change, so passing states can be asserted afterwards. */
async function traceDetail(page: Page): Promise<() => Promise<Snapshot[]>> {
  await page.evaluate(() => {
    const trace: Snapshot[] = [];
    (window as unknown as { detailTrace: Snapshot[] }).detailTrace = trace;
    new MutationObserver(() => {
      const detail = document.querySelector('[data-testid="transcription-detail"]');
      if (!detail) return;
      const snapshot = {
        status: detail.getAttribute('data-status'),
        modelLoading: detail.querySelector('[data-testid="model-loading"]')?.textContent?.trim() ?? null,
        progress:
          detail.querySelector('[data-testid="transcription-progress"]')?.getAttribute('value') ?? null,
        segments: detail.querySelectorAll('[data-testid="segment"]').length,
      };
      const last = trace.at(-1);
      if (!last || JSON.stringify(last) !== JSON.stringify(snapshot)) trace.push(snapshot);
    }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { detailTrace: Snapshot[] }).detailTrace);
}

/** Settings → Local models: the one model host (Whisper and speaker labels read it too). */
async function useModelHost(page: Page, host: string): Promise<void> {
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-nav-local-models').click();
  await page.getByTestId('model-host').fill(host);
  await page.getByTestId('model-host-save').click();
  await expect(page.getByTestId('model-host-saved')).toBeVisible();
}

/** The tiny model from this app's /models/, never downloaded from elsewhere; optionally a speaker model. */
async function useTinyModel(page: Page, speakers?: string): Promise<void> {
  await useModelHost(page, MODEL_HOST);
  await page.getByTestId('settings-nav-transcription').click();
  await page.getByTestId('transcription-allow-remote').uncheck();
  const speakersModel = page.getByTestId('transcription-diarization-model');
  await expect(speakersModel).toHaveValue('');
  if (speakers) await speakersModel.selectOption(speakers);
  await page.getByTestId('transcription-save-source').click();
  await expect(page.getByTestId('transcription-source-saved')).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByTestId('nav-transcription').click();
}

test('upload → live progress and segments → note with audio citations that seek the player', async ({
  page,
  requestLog,
}) => {
  // Two windows of the tiny model on WASM take about a minute on a busy two-core machine.
  test.setTimeout(200_000);
  const served = await serveTinyWhisper(page);
  await openApp(page);
  await useTinyModel(page);
  const trace = await traceDetail(page);

  // 40 s: two 30 s windows, so segments arrive in two Progress events before Completed.
  await page
    .getByTestId('audio-file-input')
    .setInputFiles({ name: 'lecture.wav', mimeType: 'audio/wav', buffer: toneWav(40) });

  const job = page.getByTestId('transcription-job').first();
  await expect(job).toContainText('lecture.wav');
  const detail = page.getByTestId('transcription-detail');
  await expect(detail).toHaveAttribute('data-status', 'completed', { timeout: 150_000 });
  await expect(job).toHaveAttribute('data-status', 'completed');
  await expect(job.locator('progress')).toHaveAttribute('value', '100');
  // The model really was loaded from the configured host.
  expect(served).toEqual(expect.arrayContaining(['config.json', 'tokenizer.json']));
  expect(served.some((file) => file.startsWith('onnx/encoder_model'))).toBe(true);

  // What passed on the way: the model download, then segments while still running.
  const seen = await trace();
  expect(seen.some((snapshot) => snapshot.modelLoading?.startsWith('Downloading the model'))).toBe(true);
  const live = seen.filter((snapshot) => snapshot.status === 'running' && snapshot.segments > 0);
  expect(live.length).toBeGreaterThan(0);
  expect(live[0]!.segments).toBeLessThan(seen.at(-1)!.segments);
  expect(seen.at(-1)).toMatchObject({ status: 'completed' });

  const segments = detail.getByTestId('segment');
  await expect(segments.first()).toContainText('hello tiny whisper.');
  await expect(segments.nth(1)).toContainText('world again,');
  const texts = await segments.allTextContents();
  expect(texts.length).toBeGreaterThanOrEqual(4);
  // No speaker model is chosen: "Label speakers" is off, so no job asks for it and none warns.
  await expect(page.getByTestId('transcription-diarization')).toBeDisabled();
  await expect(page.getByTestId('transcription-diarization')).not.toBeChecked();
  await expect(detail.getByTestId('transcription-warning')).toHaveCount(0);

  // Clicking a segment seeks the player to it.
  const audio = detail.getByTestId('audio-element');
  await segments.nth(1).click();
  await expect
    .poll(() => audio.evaluate((element: HTMLAudioElement) => element.currentTime))
    .toBeGreaterThanOrEqual(2);
  await expect(segments.nth(1)).toHaveAttribute('aria-current', 'true');

  // Transcript → note; the note opens with its audio citations. No segment names a speaker,
  // so there are no speakers to include.
  const noteForm = page.getByTestId('transcript-note-form');
  await expect(noteForm.getByRole('checkbox')).toHaveCount(1);
  await expect(noteForm.getByRole('checkbox', { name: 'Include timestamps' })).toBeChecked();
  await page.getByTestId('transcript-note-title').fill('Lecture 1');
  await page.getByTestId('transcript-note-folder').fill('Courses/OS');
  await page.getByTestId('transcript-create-note').click();
  await expect(page.getByTestId('note-title')).toHaveValue('Lecture 1');
  const body = await page.getByTestId('note-body').inputValue();
  expect(body).toContain('hello tiny whisper.');
  expect(body).toContain('world again,');

  // A line about the recording, then the segments grouped into paragraphs: the silence
  // between the model's windows ends one, so there are fewer citations than segments.
  const citations = page.getByTestId('audio-citation');
  await expect(citations.last()).toBeVisible();
  const cited = await citations.count();
  expect(cited).toBeGreaterThanOrEqual(3);
  expect(cited).toBeLessThan(texts.length + 1);
  const start = Number(await citations.nth(2).getAttribute('data-start'));
  expect(start).toBeGreaterThan(1);
  await citations.nth(2).click();
  const player = page.getByTestId('note-audio-citations').getByTestId('audio-element');
  // Where the player went: the start of the stretch it has played up to now (its position while
  // paused), which, unlike the position, does not move on while the test reads it.
  const playedFrom = () =>
    player.evaluate((element: HTMLAudioElement) => {
      const now = element.currentTime;
      for (let index = element.played.length - 1; index >= 0; index--) {
        if (element.played.start(index) <= now && now <= element.played.end(index))
          return element.played.start(index);
      }
      return now;
    });
  await expect.poll(playedFrom).toBeGreaterThanOrEqual(start - 0.1);
  expect(await playedFrom()).toBeLessThan(start + 1.5);

  expect(requestLog.foreign()).toEqual([]);
});

test.describe('with the service worker', () => {
  test.use({ serviceWorkers: 'allow' });

  test('once its model has been used, audio is transcribed with the network off', async ({
    page,
    context,
    requestLog,
  }) => {
    test.setTimeout(240_000);
    const served = await serveTinyWhisper(page);
    await openApp(page);
    await waitForServiceWorker(page);
    await useTinyModel(page);
    const detail = page.getByTestId('transcription-detail');
    await page
      .getByTestId('audio-file-input')
      .setInputFiles({ name: 'online.wav', mimeType: 'audio/wav', buffer: toneWav(5) });
    await expect(detail).toHaveAttribute('data-status', 'completed', { timeout: 120_000 });
    expect(served).toEqual(expect.arrayContaining(['config.json', 'tokenizer.json']));

    // In the lecture hall: no network, and nothing answers at the model host any more, so
    // the model, the runtime and the app itself must come from what the first use kept.
    await context.unroute(`**${MODEL_HOST}**`);
    const asked: string[] = [];
    await context.route(`**${MODEL_HOST}**`, (route) => {
      asked.push(new URL(route.request().url()).pathname);
      return route.abort('internetdisconnected');
    });
    await context.setOffline(true);
    await page.reload();
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    await page.getByTestId('nav-transcription').click();
    const trace = await traceDetail(page);
    // Other audio: the same bytes would be stored once, under the first upload's name.
    await page
      .getByTestId('audio-file-input')
      .setInputFiles({ name: 'offline.wav', mimeType: 'audio/wav', buffer: toneWav(6) });
    const job = page.getByTestId('transcription-job').filter({ hasText: 'offline.wav' });
    await expect(job).toHaveAttribute('aria-current', 'true');
    await expect(job).toHaveAttribute('data-status', 'completed', { timeout: 120_000 });
    await expect(detail).toHaveAttribute('data-status', 'completed');
    await expect(detail.getByTestId('segment').first()).toContainText('hello tiny whisper.');
    await expect(detail.getByTestId('segment').nth(1)).toContainText('world again,');
    // The model is read from this device, and the page says so rather than "Downloading".
    const loading = (await trace()).flatMap((snapshot) => snapshot.modelLoading ?? []);
    expect(loading.some((text) => text.startsWith('Loading the model from this device'))).toBe(true);
    expect(loading.filter((text) => text.startsWith('Downloading'))).toEqual([]);
    expect(asked).toEqual([]);
    expect(requestLog.foreign()).toEqual([]);
  });
});

test('with a speaker labels model set, each segment carries the speaker the model hears', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const served = await serveTinyWhisper(page, { [PYANNOTE_ID]: buildTinyPyannote() });
  await openApp(page);
  await useTinyModel(page, PYANNOTE_ID);
  await expect(page.getByTestId('transcription-diarization')).toBeEnabled();
  await expect(page.getByTestId('transcription-diarization')).toBeChecked();

  // The tiny Whisper says "hello tiny whisper." over 0-2 s and "world again," over 2-4.5 s;
  // the first voice talks for 2 s, the second for 3 s.
  const [first, second] = TINY_PYANNOTE_VOICES;
  await page.getByTestId('audio-file-input').setInputFiles({
    name: 'dialogue.wav',
    mimeType: 'audio/wav',
    buffer: tonesWav([
      [first, 2],
      [second, 3],
    ]),
  });
  const detail = page.getByTestId('transcription-detail');
  await expect(detail).toHaveAttribute('data-status', 'completed', { timeout: 120_000 });
  const segments = detail.getByTestId('segment');
  await expect(segments).toHaveCount(2);
  await expect(segments.nth(0)).toContainText('SPEAKER_00');
  await expect(segments.nth(0)).toContainText('hello tiny whisper.');
  await expect(segments.nth(1)).toContainText('SPEAKER_01');
  await expect(segments.nth(1)).toContainText('world again,');
  await expect(detail.getByTestId('transcription-warning')).toHaveCount(0);
  expect(served).toContain(`${PYANNOTE_ID}/onnx/model.onnx`);
  // The speakers can go into the note (or be left out).
  await expect(page.getByTestId('transcript-include-speakers')).toBeChecked();

  // The choice is stored with the transcription settings.
  await page.reload();
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-nav-transcription').click();
  await expect(page.getByTestId('transcription-diarization-model')).toHaveValue(PYANNOTE_ID);
});

test('a dropped or picked file that is not audio is refused before upload; undecodable audio is refused by the upload', async ({
  page,
}) => {
  await openApp(page);
  await page.getByTestId('nav-transcription').click();
  const dropped = await page.evaluateHandle(() => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(['%PDF-1.7'], 'slides.pdf', { type: 'application/pdf' }));
    return transfer;
  });
  await page.getByTestId('audio-drop-zone').dispatchEvent('drop', { dataTransfer: dropped });
  await expect(page.getByTestId('audio-file-rejected')).toHaveText(
    '“slides.pdf” is not an audio file in a supported format (WAV, MP3, M4A/AAC, OGG/Opus, WebM or FLAC).',
  );

  await page
    .getByTestId('audio-file-input')
    .setInputFiles({ name: 'silence.wav', mimeType: 'audio/wav', buffer: Buffer.alloc(0) });
  await expect(page.getByTestId('audio-file-rejected')).toHaveText('“silence.wav” is empty.');
  await expect(page.getByTestId('transcription-job')).toHaveCount(0);

  await page.getByTestId('audio-file-input').setInputFiles({
    name: 'broken.mp3',
    mimeType: 'audio/mpeg',
    buffer: Buffer.from('not really an mp3 at all'),
  });
  await expect(page.getByTestId('audio-file-rejected')).toHaveCount(0);
  await expect(page.getByText('This file is marked as MP3, but its content is not MP3 audio.')).toBeVisible();
  await expect(page.getByTestId('transcription-job')).toHaveCount(0);
});

test('recording on a machine without a microphone says so', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('nav-transcription').click();
  await page.getByTestId('recorder-start').click();
  await expect(page.getByTestId('recorder-error')).toHaveText('No microphone was found.');
  await expect(page.getByTestId('recorder-start')).toBeEnabled();
});

test('cancelling a running transcription ends it as cancelled, without a note form', async ({ page }) => {
  test.setTimeout(120_000);
  await serveTinyWhisper(page);
  await openApp(page);
  await useTinyModel(page);
  await page
    .getByTestId('audio-file-input')
    .setInputFiles({ name: 'long.wav', mimeType: 'audio/wav', buffer: toneWav(40) });
  const detail = page.getByTestId('transcription-detail');
  await expect(detail).toHaveAttribute('data-status', 'running', { timeout: 30_000 });
  await page.getByTestId('transcription-cancel').click();
  await expect(detail).toHaveAttribute('data-status', 'cancelled', { timeout: 30_000 });
  await expect(page.getByTestId('transcription-job').first()).toHaveAttribute('data-status', 'cancelled');
  await expect(detail.getByTestId('transcription-cancel')).toHaveCount(0);
  await expect(detail.getByTestId('transcription-error')).toHaveAttribute(
    'data-code',
    'TRANSCRIPTION_CANCELLED',
  );
  await expect(detail.getByTestId('transcript-note-form')).toHaveCount(0);

  // The job is stored: after a reload it is listed as it ended, without a progress bar.
  await page.reload();
  await page.getByTestId('nav-transcription').click();
  const job = page.getByTestId('transcription-job').filter({ hasText: 'long.wav' });
  await expect(job).toHaveAttribute('data-status', 'cancelled');
  await expect(job.locator('progress')).toHaveCount(0);
  await job.click();
  await expect(page.getByTestId('transcription-detail')).toHaveAttribute('data-status', 'cancelled');
  await expect(page.getByTestId('audio-element')).toBeVisible();

  // It can be run again without picking the file again, in its place: one entry, running.
  await page.getByTestId('transcription-retry').click();
  await expect(page.getByTestId('transcription-job')).toHaveCount(1);
  await expect(page.getByTestId('transcription-job').filter({ hasText: 'long.wav' })).toHaveAttribute(
    'data-status',
    /queued|running/,
  );
  await expect(detail).toHaveAttribute('data-status', 'running', { timeout: 30_000 });
  await page.getByTestId('transcription-cancel').click();
  await expect(detail).toHaveAttribute('data-status', 'cancelled', { timeout: 30_000 });

  // A cancelled transcription can be deleted, for good.
  await page.getByTestId('transcription-delete').click();
  await expect(page.getByTestId('transcription-job')).toHaveCount(0);
  await expect(page.getByTestId('transcription-detail')).toHaveCount(0);
  await page.reload();
  await page.getByTestId('nav-transcription').click();
  await expect(page.getByTestId('transcription-job')).toHaveCount(0);
});

test('a model that could not be downloaded says so, points at the model host, and Retry there replaces the failed job', async ({
  page,
}) => {
  test.setTimeout(150_000);
  await serveTinyWhisper(page);
  await page.context().route('**/no-models/**', (route) => route.fulfill({ status: 404, body: 'not found' }));
  await openApp(page);
  await useModelHost(page, '/no-models/');
  await page.keyboard.press('Escape');
  await page.getByTestId('nav-transcription').click();
  await page
    .getByTestId('audio-file-input')
    .setInputFiles({ name: 'short.wav', mimeType: 'audio/wav', buffer: toneWav(3) });
  const detail = page.getByTestId('transcription-detail');
  await expect(detail).toHaveAttribute('data-status', 'failed', { timeout: 60_000 });
  const error = detail.getByTestId('transcription-error');
  await expect(error).toHaveAttribute('data-code', 'TRANSCRIPTION_MODEL_UNAVAILABLE');
  await expect(error).toContainText('could not be loaded or downloaded');

  // The link opens Settings at the model host; fixed there, Retry runs the same audio again.
  await error.getByTestId('transcription-model-host-link').click();
  await expect(page.getByTestId('settings-page-local-models')).toBeVisible();
  await page.getByTestId('model-host').fill(MODEL_HOST);
  await page.getByTestId('model-host-save').click();
  await expect(page.getByTestId('model-host-saved')).toBeVisible();
  await page.keyboard.press('Escape');
  await detail.getByTestId('transcription-retry').click();
  await expect(detail).toHaveAttribute('data-status', 'completed', { timeout: 120_000 });

  // One recording, one entry: the retry took the failed job's place, under the same name.
  const jobs = page.getByTestId('transcription-job');
  await expect(jobs).toHaveCount(1);
  await expect(jobs.first()).toHaveAttribute('data-status', 'completed');
  await expect(jobs.first()).toContainText('short.wav');
  await expect(detail.getByTestId('transcription-detail-name')).toHaveText('short.wav');
  await page.reload();
  await page.getByTestId('nav-transcription').click();
  await expect(jobs).toHaveCount(1);
  await expect(jobs.first()).toHaveAttribute('data-status', 'completed');
});

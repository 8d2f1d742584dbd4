import type { Page, Route } from '@playwright/test';
import { buildTinyWhisper } from '../src/media/transformers/__fixtures__/tiny-whisper/tiny-whisper';
import { expect, openApp, test } from './fixtures';
import { fulfilModelFile } from './harness/model-host';
import { tonesWav } from './harness/wav';

// What a student meets after the first lecture: the same recording uploaded twice, a
// transcript already made into a note, an hour-long file's progress, the model being
// prepared after its download, and the model's name in Chinese. The model is the generated
// tiny Whisper (see transcription.spec.ts), served under the app's /models/ host; it says
// "hello tiny whisper." and "world again," in every 30 s window.
const MODEL_ID = 'onnx-community/whisper-tiny';
const MODEL_HOST = '/models/';
const files = buildTinyWhisper();
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } as const;

async function serveTinyWhisper(page: Page): Promise<void> {
  await page.context().route(`**${MODEL_HOST}**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    const prefix = `${MODEL_HOST}${MODEL_ID}/`;
    return fulfilModelFile(route, path.startsWith(prefix) ? files[path.slice(prefix.length)] : undefined);
  });
}

/**
 * ONNX Runtime's WASM, which the model needs once its files have arrived, held until
 * `release` is called: the moment between the last byte and a usable model, made to last.
 */
async function holdOnnxRuntime(page: Page): Promise<{ held: Route[]; release: () => Promise<void> }> {
  const held: Route[] = [];
  let released = false;
  await page.context().route('**/ort-wasm-simd-threaded*.wasm', (route) => {
    if (released) return route.continue();
    held.push(route);
    return Promise.resolve();
  });
  return {
    held,
    release: async () => {
      released = true;
      await Promise.all(held.splice(0).map((route) => route.continue()));
    },
  };
}

async function openModelSettings(page: Page, host: string): Promise<void> {
  const menu = page.getByRole('button', { name: /^(Open menu|打开菜单)$/ });
  if (await menu.isVisible()) await menu.click();
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-nav-local-models').click();
  await page.getByTestId('model-host').fill(host);
  await page.getByTestId('model-host-save').click();
  await expect(page.getByTestId('model-host-saved')).toBeVisible();
}

/** Settings: the model host (never downloading from elsewhere); then Transcription. */
async function useModelHost(page: Page, host: string): Promise<void> {
  await openModelSettings(page, host);
  // A phone shows one settings page at a time: back to their list first.
  const back = page.getByTestId('settings-back');
  if (await back.isVisible()) await back.click();
  await page.getByTestId('settings-nav-transcription').click();
  await page.getByTestId('transcription-allow-remote').uncheck();
  await page.getByTestId('transcription-save-source').click();
  await expect(page.getByTestId('transcription-source-saved')).toBeVisible();
  await page.keyboard.press('Escape');
  await openTranscription(page);
}

async function openTranscription(page: Page): Promise<void> {
  const menu = page.getByRole('button', { name: /^(Open menu|打开菜单)$/ });
  if (await menu.isVisible()) await menu.click();
  await page.getByTestId('nav-transcription').click();
  await expect(page.getByTestId('transcription-view')).toBeVisible();
}

function toneWav(seconds: number): Buffer {
  return tonesWav([[220, seconds]], 3000);
}

/** The titles of the notes the core stored, read straight from IndexedDB. */
function storedTitles(page: Page): Promise<string[]> {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open('notes-agent');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction('notes').objectStore('notes').getAll();
          all.onsuccess = () => {
            open.result.close();
            resolve((all.result as Array<{ title: string }>).map((note) => note.title));
          };
          all.onerror = () => reject(all.error);
        };
      }),
  );
}

/** Nothing on the page is wider than the screen (a phone scrolls sideways otherwise). */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()!.width,
  );
}

test('the same recording uploaded again under another name is listed under that name', async ({ page }) => {
  // A host with nothing on it: each job fails at once, and its name is what is looked at.
  await page.context().route('**/no-models/**', (route) => route.fulfill({ status: 404, body: 'not found' }));
  await openApp(page);
  await useModelHost(page, '/no-models/');
  const audio = toneWav(2);
  const detail = page.getByTestId('transcription-detail');
  const input = page.getByTestId('audio-file-input');

  await input.setInputFiles({ name: 'monday.wav', mimeType: 'audio/wav', buffer: audio });
  await expect(detail).toHaveAttribute('data-status', 'failed', { timeout: 60_000 });
  await input.setInputFiles({ name: 'tuesday.wav', mimeType: 'audio/wav', buffer: audio });
  const jobs = page.getByTestId('transcription-job');
  await expect(jobs).toHaveCount(2);
  await expect(detail.getByTestId('transcription-detail-name')).toHaveText('tuesday.wav');
  await expect(jobs.nth(0)).toHaveAttribute('aria-current', 'true');
  await expect(jobs.nth(0)).toContainText('tuesday.wav');
  await expect(jobs.nth(1)).toContainText('monday.wav');

  // Stored with the job: the names are the same after a reload.
  await page.reload();
  await openTranscription(page);
  await expect(jobs.nth(0)).toContainText('tuesday.wav');
  await expect(jobs.nth(1)).toContainText('monday.wav');
  await jobs.nth(1).click();
  await expect(detail.getByTestId('transcription-detail-name')).toHaveText('monday.wav');
});

test('once every model file has arrived, the page says the model is being prepared, not "Downloading: 100%"', async ({
  page,
}) => {
  test.setTimeout(150_000);
  await serveTinyWhisper(page);
  const runtime = await holdOnnxRuntime(page);
  await openApp(page);
  await useModelHost(page, MODEL_HOST);
  await page
    .getByTestId('audio-file-input')
    .setInputFiles({ name: 'seminar.wav', mimeType: 'audio/wav', buffer: toneWav(3) });
  const detail = page.getByTestId('transcription-detail');
  const loading = detail.getByTestId('model-loading');

  // The model cannot be built without the runtime, so the page sits between the download and the model.
  await expect(loading).toHaveText('Preparing the model…', { timeout: 90_000 });
  await expect(loading).toHaveAttribute('data-phase', 'preparing');
  expect(runtime.held.length).toBeGreaterThan(0);
  await expect(detail).not.toContainText('100%');
  await expect(detail).toHaveAttribute('data-status', 'running');

  await runtime.release();
  await expect(detail).toHaveAttribute('data-status', 'completed', { timeout: 120_000 });
  await expect(loading).toHaveCount(0);
});

for (const { name, use, texts } of [
  {
    name: 'at a desk, in English',
    use: {},
    texts: {
      done: '0:30 of 0:40 transcribed',
      left: /^(less than a minute|about \d+ min) left$/,
      openNote: 'Open note “Seminar 1”',
    },
  },
  {
    name: 'on a phone, in Chinese',
    use: { ...PHONE, locale: 'zh-CN' },
    texts: {
      done: '已转写 0:30 / 0:40',
      left: /^(剩余不到 1 分钟|约剩 \d+ 分钟)$/,
      openNote: '打开笔记“Seminar 1”',
    },
  },
]) {
  test.describe(name, () => {
    test.use(use);

    // One transcription serves both: the model's load and the long job are the slow part, and the
    // note flow needs only a finished transcript, which the long recording leaves.
    test('a long recording shows how much of its audio is transcribed, and about how long the rest takes; back on its transcript made into a note, it opens that note, and a second note only on request', async ({
      page,
    }) => {
      // Hang guards: the long job's and the note steps' (each a test of its own before).
      test.setTimeout(420_000);
      await serveTinyWhisper(page);
      await openApp(page);
      await useModelHost(page, MODEL_HOST);
      // Every state the detail passes through, with whether its status line fits on the screen.
      await page.evaluate(() => {
        const seen: Array<{ done: string | null; left: string | null; fits: boolean }> = [];
        (window as unknown as { audioTrace: typeof seen }).audioTrace = seen;
        new MutationObserver(() => {
          const done = document.querySelector('[data-testid="transcription-audio-progress"]');
          const left = document.querySelector('[data-testid="transcription-time-left"]');
          if (!done) return;
          const right = Math.max(
            ...[done, left].map((element) => element?.getBoundingClientRect().right ?? 0),
          );
          const snapshot = {
            done: done.textContent?.trim() ?? null,
            left: left?.textContent?.trim() ?? null,
            fits: right <= window.innerWidth,
          };
          if (JSON.stringify(seen.at(-1)) !== JSON.stringify(snapshot)) seen.push(snapshot);
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
      });

      // 40 s: two 30 s windows, so the first one's Progress comes while the job still runs.
      await page
        .getByTestId('audio-file-input')
        .setInputFiles({ name: 'lecture.wav', mimeType: 'audio/wav', buffer: toneWav(40) });
      const detail = page.getByTestId('transcription-detail');
      await expect(detail).toHaveAttribute('data-status', 'completed', { timeout: 200_000 });

      const seen = await page.evaluate(
        () =>
          (
            window as unknown as {
              audioTrace: Array<{ done: string | null; left: string | null; fits: boolean }>;
            }
          ).audioTrace,
      );
      const afterFirstWindow = seen.find((snapshot) => snapshot.done === texts.done);
      expect(afterFirstWindow, JSON.stringify(seen)).toBeDefined();
      expect(afterFirstWindow!.left).toMatch(texts.left);
      expect(seen.every((snapshot) => snapshot.fits)).toBe(true);
      // Ended: the time is no longer counted.
      await expect(detail.getByTestId('transcription-audio-progress')).toHaveCount(0);
      await expect(detail.getByTestId('transcription-time-left')).toHaveCount(0);
      await expectNoSidewaysScroll(page);

      // The finished transcript, not yet a note.
      await expect(detail.getByTestId('transcript-open-note')).toHaveCount(0);
      await detail.getByTestId('transcript-note-title').fill('Seminar 1');
      await detail.getByTestId('transcript-create-note').click();
      await expect(page.getByTestId('note-title')).toHaveValue('Seminar 1');
      // The keyboard goes along to the note made (the form left the page with its view).
      await expect(page.getByTestId('note-title')).toBeFocused();

      // Back to the recording: its note is one tap away, and nothing invites the same note again.
      await page.goBack();
      await expect(detail).toHaveAttribute('data-status', 'completed');
      const open = detail.getByTestId('transcript-open-note');
      await expect(open).toHaveText(texts.openNote);
      await expect(detail.getByTestId('transcript-create-note')).toHaveCount(0);
      await open.scrollIntoViewIfNeeded();
      await expect(open).toBeInViewport();
      await expectNoSidewaysScroll(page);

      await open.click();
      await expect(page.getByTestId('note-title')).toHaveValue('Seminar 1');
      await expect(page.getByTestId('note-title')).toBeFocused();
      // One note was made, not two.
      expect(await storedTitles(page)).toEqual(['Seminar 1']);

      await page.goBack();
      await expect(detail).toHaveAttribute('data-status', 'completed');
      // A second layout (say, without timestamps) is still possible, when asked for.
      await detail.getByTestId('transcript-create-another').click();
      await expect(detail.getByTestId('transcript-note-title')).toBeFocused();
      await expect(detail.getByTestId('transcript-create-note')).toBeVisible();
    });
  });
}

for (const { name, use } of [
  { name: 'at a desk', use: {} },
  { name: 'on a phone', use: PHONE },
]) {
  test.describe(name, () => {
    test.use({ ...use, locale: 'zh-CN' });

    test('in Chinese the model choice is described in Chinese', async ({ page }) => {
      await openApp(page);
      await openTranscription(page);
      const profile = page.getByTestId('transcription-profile');
      const options = await profile.locator('option').allTextContents();
      expect(options.length).toBeGreaterThan(0);
      expect(options[0]).toBe('默认 — Whisper tiny（多语言） · 约 41 MB');
      expect(options.join('\n')).not.toMatch(/multilingual|default/i);
      // The longest choice does not push the picker off a phone's screen.
      await profile.selectOption({ index: options.length - 1 });
      await expect(profile).toBeInViewport({ ratio: 1 });
      await expectNoSidewaysScroll(page);
    });
  });
}

import type { Locator, Page } from '@playwright/test';
import { expect, openApp, test } from './fixtures';
import { serveTinyWhisper, useTranscriptionModelHost } from './harness/chain-steps';
import { tonesWav } from './harness/wav';

// What a screen-reader user and a dark-theme reader meet on the Transcription page: the file
// input and every progress bar say what they are for, each language is read in its own voice,
// and placeholders are readable. The model is the generated tiny Whisper (see transcription.spec.ts).
const MODEL_ID = 'onnx-community/whisper-tiny';
const MODEL_HOST = '/models/';

/** WCAG 2 contrast of a field's placeholder on the colour behind the field, computed in the page. */
function placeholderContrast(field: Locator): Promise<number> {
  return field.evaluate((element) => {
    const rgb = (text: string): number[] => (text.match(/[\d.]+/g) ?? []).map(Number);
    const luminance = ([r, g, b]: number[]): number => {
      const linear = (value: number) => {
        const channel = value / 255;
        return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * linear(r!) + 0.7152 * linear(g!) + 0.0722 * linear(b!);
    };
    // The first opaque background from the field outwards is what the placeholder is drawn on.
    let background: number[] = [255, 255, 255];
    for (let at: Element | null = element; at; at = at.parentElement) {
      const colour = rgb(getComputedStyle(at).backgroundColor);
      if (colour.length === 3 || (colour.length === 4 && colour[3] === 1)) {
        background = colour;
        break;
      }
    }
    const colour = rgb(getComputedStyle(element, '::placeholder').color);
    // A translucent placeholder blends into the background.
    const alpha = (colour[3] ?? 1) * Number(getComputedStyle(element, '::placeholder').opacity || 1);
    const drawn = [0, 1, 2].map((index) => colour[index]! * alpha + background[index]! * (1 - alpha));
    const [light, dark] = [luminance(drawn), luminance(background)].sort((a, b) => b - a);
    return (light! + 0.05) / (dark! + 0.05);
  });
}

async function chooseTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-nav-general').click();
  await page.getByTestId('theme-scheme-select').selectOption(theme);
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('settings')).toBeHidden();
}

test('the audio file input is named, its formats described, and each language is read in its own voice', async ({
  page,
  requestLog,
}) => {
  await openApp(page);
  await page.getByTestId('nav-transcription').click();

  const input = page.getByTestId('audio-file-input');
  await expect(input).toHaveAccessibleName('Audio file to transcribe');
  await expect(input).toHaveAccessibleDescription('WAV, MP3, M4A/AAC, OGG/Opus, WebM or FLAC');

  // Languages named in themselves carry their language; "Detect automatically" is in the UI's.
  const languages = page.getByTestId('transcription-language');
  await expect(languages.getByRole('option', { name: '中文' })).toHaveAttribute('lang', 'zh-CN');
  await expect(languages.getByRole('option', { name: 'English' })).toHaveAttribute('lang', 'en');
  await expect(languages.getByRole('option', { name: '日本語' })).toHaveAttribute('lang', 'ja');
  await expect(languages.locator('option:not([lang])')).toHaveText(['Detect automatically']);

  // The UI language picker does the same.
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-nav-general').click();
  const locales = page.getByTestId('locale-select');
  await expect(locales.getByRole('option', { name: '简体中文' })).toHaveAttribute('lang', 'zh-CN');
  await expect(locales.getByRole('option', { name: 'English' })).toHaveAttribute('lang', 'en');
  expect(requestLog.foreign()).toEqual([]);
});

test('placeholders read at 4.5:1 or more in the dark theme and the light one', async ({
  page,
  requestLog,
}) => {
  await openApp(page);
  const fields = [page.getByTestId('title-filter'), page.getByTestId('search-input')];
  await chooseTheme(page, 'dark');
  for (const field of fields) {
    await expect(field).toHaveAttribute('placeholder', /\S/);
    expect(await placeholderContrast(field)).toBeGreaterThanOrEqual(4.5);
  }
  await chooseTheme(page, 'light');
  for (const field of fields) expect(await placeholderContrast(field)).toBeGreaterThanOrEqual(4.5);
  expect(requestLog.foreign()).toEqual([]);
});

interface BarState {
  label: string | null;
  text: string | null;
}

/** Records the name and spoken value of every progress bar on the page after each DOM change. */
async function traceBars(page: Page): Promise<() => Promise<BarState[]>> {
  await page.evaluate(() => {
    const seen = new Map<string, { label: string | null; text: string | null }>();
    (window as unknown as { barTrace: typeof seen }).barTrace = seen;
    new MutationObserver(() => {
      for (const bar of Array.from(
        document.querySelectorAll('[data-testid="transcription-view"] progress'),
      )) {
        const state = { label: bar.getAttribute('aria-label'), text: bar.getAttribute('aria-valuetext') };
        seen.set(JSON.stringify(state), state);
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  });
  return () =>
    page.evaluate(() => [...(window as unknown as { barTrace: Map<string, BarState> }).barTrace.values()]);
}

test('each progress bar names the recording it is for and says its share or stage', async ({
  page,
  requestLog,
}) => {
  // Two windows of the tiny model on WASM take about a minute on a busy two-core machine.
  test.setTimeout(200_000);
  await serveTinyWhisper(page, MODEL_HOST, MODEL_ID);
  await openApp(page);
  await useTranscriptionModelHost(page, MODEL_HOST);
  await page.getByTestId('nav-transcription').click();
  const bars = await traceBars(page);

  // 40 s: two 30 s windows, so the job reports a share between them.
  await page
    .getByTestId('audio-file-input')
    .setInputFiles({ name: 'lecture.wav', mimeType: 'audio/wav', buffer: tonesWav([[220, 40]], 3000) });
  const job = page.getByTestId('transcription-job').first();
  await expect(job).toHaveAttribute('data-status', 'completed', { timeout: 150_000 });

  // Done: the list's bar says so, by the recording's name.
  const done = job.getByRole('progressbar', { name: 'lecture.wav transcribed' });
  await expect(done).toHaveAttribute('aria-valuetext', '100%');

  // On the way, every bar had a name and a spoken value: the model loading, then the share done.
  const seen = await bars();
  expect(seen.filter((state) => !state.label || !state.text)).toEqual([]);
  expect(seen).toContainEqual({ label: 'Loading the model for lecture.wav', text: expect.any(String) });
  const shares = seen.filter(
    (state) => state.label === 'Transcribing lecture.wav' && /^\d+%$/.test(state.text ?? ''),
  );
  expect(shares.length).toBeGreaterThan(0);
  expect(requestLog.foreign()).toEqual([]);
});

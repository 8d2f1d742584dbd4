import type { Page } from '@playwright/test';
import { expect, openApp, test } from './fixtures';
import { serveTinyWhisper, useTranscriptionModelHost } from './harness/chain-steps';
import { tonesWav } from './harness/wav';

// The tiny Whisper (see transcription.spec.ts) says the same script for any audio:
// "hello tiny whisper." over 0-2 s and "world again," over 2-4.5 s. On a 2 s clip its
// second phrase lies wholly past the end of the audio, as real Whisper's hallucinated
// tails do on short clips: the words must stay, but not as a citation of no time.
const MODEL_ID = 'onnx-community/whisper-tiny';
const MODEL_HOST = '/models/';
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } as const;

const MENU = { name: /^(Open menu|打开菜单)$/ };

async function openTranscription(page: Page): Promise<void> {
  const menu = page.getByRole('button', MENU);
  if (await menu.isVisible()) await menu.click();
  await page.getByTestId('nav-transcription').click();
  await expect(page.getByTestId('transcription-view')).toBeVisible();
}

const PHONE_USE = { ...PHONE, locale: 'zh-CN' } as const;

for (const { name, use } of [
  { name: 'at a desk', use: { viewport: { width: 1280, height: 800 } } },
  { name: 'on a phone, in Chinese', use: PHONE_USE },
]) {
  test.describe(name, () => {
    test.use(use);

    test('speech placed past the end of the audio joins the last stretch instead of citing 0 seconds', async ({
      page,
    }) => {
      test.setTimeout(180_000);
      await serveTinyWhisper(page, MODEL_HOST, MODEL_ID);
      await openApp(page);
      await useTranscriptionModelHost(page, MODEL_HOST);
      await openTranscription(page);
      await page.getByTestId('audio-file-input').setInputFiles({
        name: 'short.wav',
        mimeType: 'audio/wav',
        buffer: tonesWav([[220, 2]], 3000),
      });
      const detail = page.getByTestId('transcription-detail');
      await expect(detail).toHaveAttribute('data-status', 'completed', { timeout: 150_000 });

      // The transcript starts every stretch inside the 2 s of audio, and loses no words.
      const segments = detail.getByTestId('segment');
      await expect(segments.first()).toContainText('hello tiny whisper.');
      await expect(detail.getByTestId('segment-list')).toContainText('world again,');
      for (const start of await segments.evaluateAll((items) =>
        items.map((item) => Number(item.getAttribute('data-start'))),
      ))
        expect(start).toBeLessThan(2);

      await detail.getByTestId('transcript-note-title').fill('Short clip');
      await detail.getByTestId('transcript-create-note').click();
      await expect(page.getByTestId('note-title')).toHaveValue('Short clip');
      expect(await page.getByTestId('note-body').inputValue()).toContain('world again,');

      // Every citation plays some audio: none starts at the end or spans "0:02–0:02".
      const citations = page.getByTestId('audio-citation');
      // On a phone the list starts folded under its summary line, leaving the note the room.
      const toggle = page.getByTestId('note-audio-toggle');
      if (use === PHONE_USE) await toggle.click();
      await expect(toggle).toHaveAttribute('aria-expanded', 'true');
      await expect(citations.first()).toBeVisible();
      await expect(page.getByTestId('note-audio-citations')).toContainText('world again,');
      const cited = await citations.evaluateAll((items) =>
        items.map((item) => ({
          start: Number(item.getAttribute('data-start')),
          time: item.querySelector('.time')?.textContent?.replace('▶', '').trim() ?? '',
        })),
      );
      for (const citation of cited) {
        expect(citation.start).toBeLessThan(2);
        const [from, to] = citation.time.split('–');
        expect(from, citation.time).not.toBe(to);
      }
    });
  });
}

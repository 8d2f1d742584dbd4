import type { Page } from '@playwright/test';
import { expect, openApp, test } from './fixtures';
import { serveTinyWhisper, useTranscriptionModelHost } from './harness/chain-steps';
import { askNotes } from './harness/chat-steps';
import { tonesWav } from './harness/wav';

// The tiny Whisper (see transcription.spec.ts) says the same script in each 25 s window:
// "hello tiny whisper." over its first 2 s and "world again," over the next 2.5 s. Between
// windows lies a long silence, so a transcript note has one paragraph per window.
const MODEL_ID = 'onnx-community/whisper-tiny';
const MODEL_HOST = '/models/';
const DESK = { viewport: { width: 1440, height: 900 } } as const;
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } as const;
const MENU = { name: /^(Open menu|打开菜单)$/ };

/** Transcribes `seconds` of tone uploaded as `name` and waits for the job to complete. */
async function transcribe(page: Page, name: string, seconds: number): Promise<void> {
  await serveTinyWhisper(page, MODEL_HOST, MODEL_ID);
  await openApp(page);
  await useTranscriptionModelHost(page, MODEL_HOST);
  const menu = page.getByRole('button', MENU);
  if (await menu.isVisible()) await menu.click();
  await page.getByTestId('nav-transcription').click();
  await page.getByTestId('transcription-language').selectOption('en');
  await page.getByTestId('audio-file-input').setInputFiles({
    name,
    mimeType: 'audio/wav',
    buffer: tonesWav([[220, seconds]], 3000),
  });
  const detail = page.getByTestId('transcription-detail');
  await expect(detail).toHaveAttribute('data-status', 'completed', { timeout: 420_000 });
  await expect(detail.getByTestId('segment').first()).toContainText('hello tiny whisper.');
}

/** Where the player went: the start of the stretch it has played up to now (see transcription.spec.ts). */
function playedFrom(page: Page): Promise<number> {
  return page
    .getByTestId('note-audio-citations')
    .getByTestId('audio-element')
    .evaluate((element: HTMLAudioElement) => {
      const now = element.currentTime;
      for (let index = element.played.length - 1; index >= 0; index--) {
        if (element.played.start(index) <= now && now <= element.played.end(index))
          return element.played.start(index);
      }
      return now;
    });
}

test.describe('at a desk', () => {
  test.use(DESK);

  test('a finished transcription offers its note first, named after the file; the note reads in paragraphs', async ({
    page,
  }) => {
    test.setTimeout(540_000);
    await transcribe(page, 'quokka-lecture.wav', 40);
    const detail = page.getByTestId('transcription-detail');

    // The next step is on screen, above the transcript, and says what the note will be called.
    const form = detail.getByTestId('transcript-note-form');
    await expect(form).toBeInViewport();
    const formBox = await form.boundingBox();
    const listBox = await detail.getByTestId('segment-list').boundingBox();
    expect(formBox!.y).toBeLessThan(listBox!.y);
    const title = form.getByTestId('transcript-note-title');
    await expect(title).toHaveValue('');
    await expect(title).toHaveAttribute('placeholder', 'quokka-lecture');

    await form.getByTestId('transcript-create-note').click();
    await expect(page.getByTestId('note-title')).toHaveValue('quokka-lecture');
    // A line about the recording, then the segments grouped: each window's two phrases make one paragraph.
    const paragraphs = (await page.getByTestId('note-body').inputValue()).trim().split('\n\n');
    expect(paragraphs[0]).toMatch(/^quokka-lecture\.wav · \d{4}-\d\d-\d\d · 00:\d\d · en$/);
    const grouped = paragraphs.slice(1);
    expect(grouped.length).toBeGreaterThan(0);
    for (const paragraph of grouped)
      expect(paragraph).toMatch(/^\[00:\d\d\] hello tiny whisper\. world again,$/);
    // One citation per block: the recording's, then each paragraph's from its first phrase.
    const citations = page.getByTestId('audio-citation');
    await expect(citations).toHaveCount(paragraphs.length);
    const starts = await citations.evaluateAll((items) =>
      items.map((item) => Number(item.getAttribute('data-start'))),
    );
    expect(starts.slice(1).map((start) => `[00:${String(Math.floor(start)).padStart(2, '0')}]`)).toEqual(
      grouped.map((paragraph) => paragraph.slice(0, 7)),
    );
  });

  test('a chat citation opens the note, and the source audio shows its passage and plays from there', async ({
    page,
  }) => {
    test.setTimeout(580_000);
    await transcribe(page, 'quokka-lecture.wav', 40);
    await page.getByTestId('transcript-create-note').click();
    await expect(page.getByTestId('note-title')).toHaveValue('quokka-lecture');
    await expect(page.getByTestId('audio-citation').first()).toBeVisible();

    const answer = await askNotes(page, 'What does the tiny whisper say, hello or world?');
    const source = answer.locator('[data-testid="chat-citation"]').first();
    const blockId = await source.getAttribute('data-block-id');
    expect(blockId).toBeTruthy();
    await source.click();
    await expect(page.getByTestId('note-title')).toHaveValue('quokka-lecture');
    await expect(page.getByTestId('preview').locator('[data-search-reveal]')).toBeVisible();

    // The panel marks the revealed block's passage, in view, and offers to play from it.
    const passage = page.locator(`[data-testid="audio-citation"][data-block-id="${blockId}"]`);
    await expect(passage).toHaveAttribute('aria-current', 'true');
    await expect(passage).toBeInViewport();
    await expect(page.locator('[data-testid="audio-citation"][aria-current]')).toHaveCount(1);
    const start = Number(await passage.getAttribute('data-start'));
    const play = page.getByTestId('note-audio-play');
    await expect(play).toHaveAttribute('data-start', String(start));
    await expect(play).toContainText('Play from here');
    await play.click();
    await expect.poll(() => playedFrom(page)).toBeGreaterThanOrEqual(start - 0.1);
    expect(await playedFrom(page)).toBeLessThan(start + 1.5);
  });
});

test.describe('on a phone, in Chinese', () => {
  test.use({ ...PHONE, locale: 'zh-CN' });

  test('the source audio starts folded to one line with a play control, leaving the note the room', async ({
    page,
  }) => {
    test.setTimeout(540_000);
    await transcribe(page, '进程调度.wav', 4);
    const form = page.getByTestId('transcript-note-form');
    await expect(form).toBeInViewport();
    await expect(form.getByTestId('transcript-note-title')).toHaveAttribute('placeholder', '进程调度');
    await form.getByTestId('transcript-create-note').click();
    await expect(page.getByTestId('note-title')).toHaveValue('进程调度');

    const panel = page.getByTestId('note-audio-citations');
    const toggle = panel.getByTestId('note-audio-toggle');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(toggle).toContainText('来源音频');
    await expect(panel.getByTestId('audio-citation').first()).toBeHidden();
    const play = panel.getByTestId('note-audio-play');
    await expect(play).toBeVisible();
    await expect(play).toContainText('播放');
    // Folded, the panel is one line: the rest of the screen is the note's.
    const { height } = (await panel.boundingBox())!;
    expect(height).toBeLessThan(844 * 0.1);

    await play.click();
    await expect(panel.getByTestId('audio-element')).toBeAttached();
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(panel.getByTestId('audio-citation').first()).toBeVisible();
  });
});

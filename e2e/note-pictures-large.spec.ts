import { writeFile } from 'node:fs/promises';
import { strToU8, zipSync } from 'fflate';
import type { Page, TestInfo } from '@playwright/test';
import { expect, openApp, storedBody, test } from './fixtures';
import { importZipFile } from './huge-notes';
import { dropFileAt, ONE_PIXEL_PNG, pictureOn } from './picture-drops';

// Pictures in a note over 256 K characters, which opens in the large-note editor (CodeMirror):
// pasted, dropped and picked as in a short note, each going in as its own line where it was put.

const MIDDLE = 'We walked to the river, then up the hill.';
/** Over the large-note threshold (256 Ki characters): a long note of paragraphs. */
const BODY = `Intro line.\n\n${MIDDLE}\n\n${Array.from(
  { length: 5_000 },
  (_, index) => `Paragraph ${index}: the scheduler picks the next runnable thread.`,
).join('\n\n')}`;

const LINK = String.raw`!\[(?<alt>[^\]]*)\]\(attachment:attachment_[0-9a-f]+\)`;

/** Hang guards for the megabyte-sized steps on a busy machine, not speed limits. */
const STEP = { timeout: 120_000 };

const noteItem = (page: Page, title: string) =>
  page.getByTestId('note-item').filter({ has: page.getByText(title, { exact: true }) });

/** A note of `BODY` titled `title`, imported and opened (in the large-note editor). Returns its id. */
async function largeNote(page: Page, testInfo: TestInfo, title: string): Promise<string> {
  expect(BODY.length).toBeGreaterThan(256 * 1024);
  await openApp(page);
  const path = testInfo.outputPath('large-note.zip');
  await writeFile(path, zipSync({ [`vault/${title}.md`]: [strToU8(BODY), { level: 0 }] }));
  await importZipFile(page, path);
  await expect(page.getByTestId('job-item').first()).toHaveAttribute('data-status', 'completed', STEP);
  await noteItem(page, title).click();
  const large = page.getByTestId('note-body-large');
  await expect(large).toHaveAttribute('data-length', String(BODY.length), STEP);
  const noteId = (await large.getAttribute('data-note-id')) ?? '';
  expect(noteId).not.toBe('');
  return noteId;
}

/** The caret at the end of the note's first line, "Intro line.". */
async function caretAfterIntro(page: Page): Promise<void> {
  await page.locator('.cm-line').first().click();
  await page.keyboard.press('End');
}

/** The first picture link in `text`, or '' when there is none. */
const linkIn = (text: string | undefined) => text?.match(new RegExp(LINK))?.[0] ?? '';

/** Saves now and returns the stored body. */
async function saved(page: Page, noteId: string): Promise<string> {
  await page.locator('.cm-content').focus();
  await page.keyboard.press('Control+s');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved', STEP);
  return (await storedBody(page, noteId)) ?? '';
}

test('a picture pasted into a large note goes in at the caret, undoes as one step, shows in the preview on demand and is saved', async ({
  page,
}, testInfo) => {
  const noteId = await largeNote(page, testInfo, 'Big lecture');
  await caretAfterIntro(page);
  const pasted = await pictureOn(page.locator('.cm-content'), 'paste', 'whiteboard.png');
  // Taken over: the browser's own paste (of nothing) does not happen.
  expect(pasted).toBe(false);

  const lines = page.locator('.cm-line');
  await expect(lines.nth(1)).toHaveText(new RegExp(`^${LINK}$`));
  await expect(lines.nth(0)).toHaveText('Intro line.');
  await expect(lines.nth(2)).toHaveText('');
  await expect(lines.nth(3)).toHaveText(MIDDLE);
  const link = linkIn((await lines.nth(1).textContent()) ?? '');
  expect(link).toMatch(/^!\[whiteboard\]/);
  const large = page.getByTestId('note-body-large');
  await expect(large).toHaveAttribute('data-length', String(BODY.length + link.length + 1));
  await expect(page.locator('.cm-content')).toBeFocused();

  // One undo step takes the picture out, and redo puts it back.
  await page.keyboard.press('Control+z');
  await expect(large).toHaveAttribute('data-length', String(BODY.length));
  await expect(lines.nth(1)).toHaveText('');
  await page.keyboard.press('Control+Shift+z');
  await expect(lines.nth(1)).toHaveText(link);

  expect((await saved(page, noteId)).startsWith(`Intro line.\n${link}\n\n${MIDDLE}\n\n`)).toBe(true);

  await page.getByTestId('show-preview').click();
  await expect
    .poll(
      () =>
        page
          .getByTestId('preview')
          .locator('img[alt="whiteboard"]')
          .evaluate((image: HTMLImageElement) => (image.complete ? image.naturalWidth : 0)),
      STEP,
    )
    .toBe(3);

  await page.reload();
  await noteItem(page, 'Big lecture').click();
  await expect(large).toHaveAttribute('data-length', String(BODY.length + link.length + 1), STEP);
  await expect(lines.nth(1)).toHaveText(link);
});

test('a picture dropped onto a large note goes in where it was dropped, not at the caret', async ({
  page,
}, testInfo) => {
  const noteId = await largeNote(page, testInfo, 'Big field trip');
  await caretAfterIntro(page);
  const path = testInfo.outputPath('river map.png');
  await writeFile(path, ONE_PIXEL_PNG);
  // Just before "then" in the second paragraph, measured on the editor's own text.
  const line = page.locator('.cm-line').filter({ hasText: MIDDLE });
  const point = await line.evaluate((element, at) => {
    const text = element.firstChild!;
    const range = document.createRange();
    range.setStart(text, at);
    range.setEnd(text, at + 1);
    const box = range.getBoundingClientRect();
    return { x: box.left, y: box.top + box.height / 2 };
  }, MIDDLE.indexOf('then'));
  await dropFileAt(page, path, point.x, point.y);

  const lines = page.locator('.cm-line');
  await expect(lines.nth(3)).toHaveText(new RegExp(`^${LINK}$`));
  await expect(lines.nth(2)).toHaveText(/^We walked to the river, ?$/);
  await expect(lines.nth(4)).toHaveText('then up the hill.');
  await expect(lines.nth(0)).toHaveText('Intro line.');
  const link = linkIn((await lines.nth(3).textContent()) ?? '');
  expect(link).toMatch(/^!\[river map\]/);
  expect(
    (await saved(page, noteId)).startsWith(
      `Intro line.\n\nWe walked to the river, \n${link}\nthen up the hill.\n\nParagraph 0:`,
    ),
  ).toBe(true);
});

test("the header's picture button adds a picture at the caret of a large note", async ({
  page,
}, testInfo) => {
  const noteId = await largeNote(page, testInfo, 'Big board');
  await caretAfterIntro(page);
  const button = page.getByTestId('insert-picture');
  await expect(button).toBeVisible();
  const chooser = page.waitForEvent('filechooser');
  await button.click();
  await (await chooser).setFiles({ name: 'board.png', mimeType: 'image/png', buffer: ONE_PIXEL_PNG });

  const lines = page.locator('.cm-line');
  await expect(lines.nth(1)).toHaveText(new RegExp(`^${LINK}$`));
  await expect(lines.nth(0)).toHaveText('Intro line.');
  await expect(page.locator('.cm-content')).toBeFocused();
  const link = linkIn((await lines.nth(1).textContent()) ?? '');
  expect(link).toMatch(/^!\[board\]/);
  expect((await saved(page, noteId)).startsWith(`Intro line.\n${link}\n\n${MIDDLE}\n\n`)).toBe(true);
});

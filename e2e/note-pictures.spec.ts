import { readFile, writeFile } from 'node:fs/promises';
import type { Locator } from '@playwright/test';
import { createNote, expect, openApp, test } from './fixtures';
import { dropFileAt, ONE_PIXEL_PNG, pictureOn, shownWidth } from './picture-drops';

// Pictures in notes as people put them there: pasted from a screenshot, dropped from the
// desktop, picked with the toolbar button on a phone. The note keeps a short link; the bytes
// are stored once beside the notes, shown by the preview and embedded by the exporters.

const LINK = String.raw`!\[(?<alt>[^\]]*)\]\(attachment:attachment_[0-9a-f]+\)`;

test('a pasted picture goes in at the caret as a short link, shows in the preview, survives a reload and goes into the export', async ({
  page,
}) => {
  await openApp(page);
  await createNote(page, 'Lecture 3', 'Before\n\nAfter');
  const body = page.getByTestId('note-body');
  await body.evaluate((input: HTMLTextAreaElement) => input.setSelectionRange(8, 8));
  expect(await pictureOn(page.getByTestId('note-body'), 'paste', 'whiteboard.png')).toBe(false);
  await expect(body).toHaveValue(new RegExp(`^Before\\n\\n${LINK}\\nAfter$`));
  await expect(body).toBeFocused();
  expect((await body.inputValue()).length).toBeLessThan(120);
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await expect.poll(() => shownWidth(page, 'whiteboard')).toBe(3);

  await page.reload();
  await page.getByTestId('note-item').filter({ hasText: 'Lecture 3' }).click();
  await expect.poll(() => shownWidth(page, 'whiteboard')).toBe(3);

  const download = page.waitForEvent('download');
  await page.getByTestId('export-note').click();
  await page.getByTestId('export-format-html').click();
  const html = await readFile(await (await download).path(), 'utf8');
  expect(html).toMatch(/<img src="data:image\/png;base64,[A-Za-z0-9+/=]+" alt="whiteboard"/);
  expect(html).not.toContain('attachment:');
});

test('a dropped picture goes in; a paste that carries text stays text; a picture no longer stored says so', async ({
  page,
}) => {
  await openApp(page);
  await createNote(page, 'Drops', 'Figure:');
  expect(await pictureOn(page.getByTestId('note-body'), 'drop', 'diagram.png')).toBe(false);
  const body = page.getByTestId('note-body');
  await expect(body).toHaveValue(new RegExp(`^Figure:\\n${LINK}\\n$`));
  await expect.poll(() => shownWidth(page, 'diagram')).toBe(3);

  // Not taken over: the browser pastes the text as it would anywhere.
  expect(await pictureOn(page.getByTestId('note-body'), 'paste-with-text', 'table.png')).toBe(true);

  await body.fill('![旧图 old](attachment:attachment_0000gone)');
  const gone = page.getByTestId('preview').locator('img[alt="旧图 old"]');
  await expect(gone).toHaveAttribute('data-missing', '');
  await expect(gone).toHaveAttribute('title', 'Picture "旧图 old" is no longer stored in this notebook.');
});

/**
 * The point in the viewport just after `prefix` on line `line` (from 0) of the textarea, measured
 * with the textarea's own font: where a user lets go of a picture to put it there.
 */
function pointInTextarea(body: Locator, line: number, prefix: string): Promise<{ x: number; y: number }> {
  return body.evaluate(
    (input: HTMLTextAreaElement, { line, prefix }) => {
      const style = getComputedStyle(input);
      const context = document.createElement('canvas').getContext('2d')!;
      context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const box = input.getBoundingClientRect();
      const lineHeight = parseFloat(style.lineHeight);
      return {
        x:
          box.left +
          parseFloat(style.borderLeftWidth) +
          parseFloat(style.paddingLeft) +
          context.measureText(prefix).width,
        y:
          box.top +
          parseFloat(style.borderTopWidth) +
          parseFloat(style.paddingTop) +
          lineHeight * (line + 0.5) -
          input.scrollTop,
      };
    },
    { line, prefix },
  );
}

test('a picture dropped in the middle of a paragraph goes in where it was dropped, on a line of its own, not at the caret', async ({
  page,
}, testInfo) => {
  await openApp(page);
  await createNote(
    page,
    'Field trip',
    'Notes from the trip.\n\nWe walked to the river, then up the hill.\n\nBack by six.',
  );
  const body = page.getByTestId('note-body');
  // The caret is left at the end of the note: the picture must not go there.
  await body.evaluate((input: HTMLTextAreaElement) => {
    input.focus();
    input.setSelectionRange(input.value.length, input.value.length);
  });
  const path = testInfo.outputPath('river map.png');
  await writeFile(path, ONE_PIXEL_PNG);
  const point = await pointInTextarea(body, 2, 'We walked to the river, ');
  await dropFileAt(page, path, point.x, point.y);

  await expect(body).toHaveValue(
    new RegExp(
      `^Notes from the trip\\.\\n\\nWe walked to the river, \\n${LINK}\\nthen up the hill\\.\\n\\nBack by six\\.$`,
    ),
  );
  expect((await body.inputValue()).match(new RegExp(LINK))?.groups?.alt).toBe('river map');
  await expect(body).toBeFocused();
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await expect.poll(() => shownWidth(page, 'river map')).toBe(1);
});

test.describe('on a phone, in Chinese', () => {
  test.use({ locale: 'zh-CN', viewport: { width: 390, height: 844 } });

  test('the picture button adds a picture at the caret, and a file that is not a picture is refused by name', async ({
    page,
  }) => {
    await openApp(page);
    await page.getByTestId('topbar-new-note').click();
    await page.getByTestId('note-title').fill('第三讲');
    await page.getByTestId('note-body').fill('板书如下：');
    // Saved: the header's buttons are all there and stay where they are.
    await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
    const button = page.getByRole('button', { name: '插入图片' });
    const box = await button.boundingBox();
    expect(box && box.x + box.width).toBeLessThanOrEqual(390);

    let chooser = page.waitForEvent('filechooser');
    await button.click();
    await (
      await chooser
    ).setFiles({ name: '说明.txt', mimeType: 'text/plain', buffer: Buffer.from('不是图片') });
    await expect(
      page
        .getByTestId('toast')
        .filter({ hasText: '未添加“说明.txt”：笔记中只能放 PNG、JPEG、GIF 和 WebP 图片。' }),
    ).toBeVisible();
    const body = page.getByTestId('note-body');
    await expect(body).toHaveValue('板书如下：');

    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    chooser = page.waitForEvent('filechooser');
    await button.click();
    await (await chooser).setFiles({ name: '白板 照片.png', mimeType: 'image/png', buffer: png });
    await expect(body).toHaveValue(new RegExp(`^板书如下：\\n${LINK}\\n$`));
    expect((await body.inputValue()).match(new RegExp(LINK))?.groups?.alt).toBe('白板 照片');
    await expect(body).toBeFocused();
    await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
    await expect.poll(() => shownWidth(page, '白板 照片')).toBe(1);
  });

  test("the note's buttons stay where they are while its status changes, so a tap meant for one lands on it", async ({
    page,
  }) => {
    await openApp(page);
    await page.getByTestId('topbar-new-note').click();
    await page.getByTestId('note-title').fill('第四讲');
    const status = page.getByTestId('save-status');
    await expect(status).toHaveAttribute('data-state', 'saved');
    const buttons = [page.getByRole('button', { name: '插入图片' }), page.getByTestId('history-open')];
    const saved = await Promise.all(buttons.map((button) => button.boundingBox()));

    // The page's timers stand still: what is typed stays unsaved until time moves on.
    await page.clock.install();
    await page.clock.pauseAt(new Date(Date.now() + 60_000));
    await page.getByTestId('note-body').fill('板书');
    await expect(status).toHaveAttribute('data-state', 'unsaved');
    expect(await Promise.all(buttons.map((button) => button.boundingBox()))).toEqual(saved);
    await page.clock.resume();
    await expect(status).toHaveAttribute('data-state', 'saved');
  });
});

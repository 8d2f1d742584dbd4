import { createNote, expect, openApp, test } from './fixtures';

test('Ctrl+S is confirmed once to a screen reader; an autosave is not said', async ({ page }) => {
  await openApp(page);
  await createNote(page, 'Saved on purpose', 'first');
  const announcement = page.getByTestId('editor-announcement');
  // Typing and the autosave after it: the status changes on screen, nothing is said.
  await page.getByTestId('note-body').press('End');
  await page.keyboard.type(' words');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await expect(announcement).toHaveText('');

  await page.keyboard.type(' more');
  await page.keyboard.press('Control+S');
  await expect(announcement).toHaveText('Saved');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('Ctrl+S says 已保存', async ({ page }) => {
    await openApp(page);
    await createNote(page, '讲义', '第一版');
    await page.getByTestId('note-body').press('End');
    await page.keyboard.type('，第二版');
    await page.keyboard.press('Control+S');
    await expect(page.getByTestId('editor-announcement')).toHaveText('已保存');
  });
});

test('the [[ completion is a combobox: expanded while its list shows, and its opening says how many notes it offers', async ({
  page,
}) => {
  await openApp(page);
  await createNote(page, 'Alpine lakes', 'a');
  await createNote(page, 'Alpine huts', 'b');
  await page.getByTestId('new-note').click();
  const body = page.getByTestId('note-body');
  await body.click();
  await expect(body).toHaveRole('combobox');
  await expect(body).toHaveAttribute('aria-expanded', 'false');

  await page.keyboard.type('See [[Alpine');
  const list = page.getByRole('listbox', { name: 'Notes to link' });
  await expect(list.getByRole('option')).toHaveCount(2);
  await expect(body).toHaveAttribute('aria-expanded', 'true');
  await expect(body).toHaveAttribute('aria-controls', (await list.getAttribute('id'))!);
  await expect(page.getByTestId('editor-announcement')).toHaveText('2 suggestions');
  // Still the text the user writes in: the caret stays there, several lines take Enter.
  await expect(body).toBeFocused();

  await page.keyboard.press('Escape');
  await expect(list).toHaveCount(0);
  await expect(body).toHaveAttribute('aria-expanded', 'false');
});

test.describe('at a projector, 1280×720', () => {
  test.use({ viewport: { width: 1280, height: 720 } });

  const FORMULA =
    '$$x(t) = \\sum_{k=-\\infty}^{\\infty} a_k e^{jk\\omega_0 t}, \\quad a_k = \\frac{1}{T}\\int_T x(t) e^{-jk\\omega_0 t}\\,dt$$';

  test('a wide display formula scrolls sideways in its own box instead of being cut at the preview edge', async ({
    page,
  }) => {
    await openApp(page);
    // Written inside the paragraph, as a teacher types it: a display formula with no math block around it.
    await createNote(page, '傅里叶级数', `系数：${FORMULA} 其中 T 为周期。`);
    const preview = page.getByTestId('preview');
    const formula = preview.locator('.katex-display');
    await expect(formula).toHaveCount(1);
    // The formula is wider than its box: the box scrolls, and the user can reach its end.
    expect(await formula.evaluate((box) => box.scrollWidth > box.clientWidth)).toBe(true);
    await formula.evaluate((box) => (box.scrollLeft = box.scrollWidth));
    await expect.poll(() => formula.evaluate((box) => box.scrollLeft)).toBeGreaterThan(0);
    const previewBox = (await preview.boundingBox())!;
    const formulaBox = (await formula.boundingBox())!;
    expect(formulaBox.x + formulaBox.width).toBeLessThanOrEqual(previewBox.x + previewBox.width + 0.5);
  });

  test('Read shows the rendered note over the whole pane at desktop width, and Split brings the editor back', async ({
    page,
  }) => {
    await openApp(page);
    await createNote(page, '傅里叶级数', `系数：\n\n${FORMULA}`);
    const preview = page.getByTestId('preview');
    const splitWidth = (await preview.boundingBox())!.width;

    await page.getByRole('group', { name: 'Show the note as' }).getByRole('button', { name: 'Read' }).click();
    await expect(page.getByTestId('note-body')).toBeHidden();
    await expect(page.getByTestId('note-view-read')).toHaveAttribute('aria-pressed', 'true');
    await expect.poll(async () => (await preview.boundingBox())!.width).toBeGreaterThan(splitWidth * 1.8);

    await page.getByTestId('note-view-split').click();
    await expect(page.getByTestId('note-body')).toBeVisible();
    await expect(preview).toBeVisible();
  });
});

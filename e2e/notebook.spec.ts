import { createNote, expect, openApp, test } from './fixtures';

test('a new note survives a reload', async ({ page, requestLog }) => {
  await openApp(page);
  await createNote(page, '操作系统 第一课', '# 进程\n\n进程是资源分配的单位。');
  await expect(page.getByTestId('preview').locator('h1')).toHaveText('进程');
  await page.reload();
  const item = page.getByTestId('note-item').filter({ hasText: '操作系统 第一课' });
  await expect(item).toHaveCount(1);
  await item.click();
  await expect(page.getByTestId('note-body')).toHaveValue('# 进程\n\n进程是资源分配的单位。');
  expect(requestLog.foreign()).toEqual([]);
});

test("an empty note's body prompts for Markdown, again once its text is deleted", async ({ page }) => {
  await openApp(page);
  await createNote(page, 'Prompted', 'x');
  const body = page.getByTestId('note-body');
  await expect(body).not.toHaveAttribute('placeholder');
  await body.press('End');
  await body.press('Backspace');
  await expect(body).toHaveValue('');
  await expect(body).toHaveAttribute('placeholder', 'Write Markdown here…');
  await page.getByTestId('new-note').click();
  await expect(page.getByTestId('note-body')).toHaveAttribute('placeholder', 'Write Markdown here…');
});

test('trash and restore a note', async ({ page }) => {
  await openApp(page);
  await createNote(page, 'Disposable', 'text');
  await page.getByTestId('trash-note').click();
  await expect(page.getByTestId('note-item').filter({ hasText: 'Disposable' })).toHaveCount(0);
  await page.getByTestId('nav-trash').click();
  const trashed = page.getByTestId('note-item').filter({ hasText: 'Disposable' });
  await expect(trashed).toHaveCount(1);
  await trashed.click();
  await page.getByTestId('restore-note').click();
  await page.getByTestId('nav-all').click();
  await expect(page.getByTestId('note-item').filter({ hasText: 'Disposable' })).toHaveCount(1);
});

test('text typed just before a reload is not lost', async ({ page }) => {
  await openApp(page);
  await createNote(page, 'Draft', 'first line');
  await page.getByTestId('note-body').press('End');
  await page.getByTestId('note-body').pressSequentially('\nsecond line');
  // Reload at once, before the autosave pause has passed.
  await page.reload();
  await page.getByTestId('note-item').filter({ hasText: 'Draft' }).click();
  await expect(page.getByTestId('note-body')).toHaveValue('first line\nsecond line');
});

test('Markdown cannot run script', async ({ page }) => {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await openApp(page);
  await createNote(
    page,
    'XSS',
    [
      '<img src=x onerror="window.__xss = 1; alert(1)">',
      '',
      '[click me](javascript:window.__xss=2)',
      '',
      '<a href="JaVaScRiPt:window.__xss=3">mixed case</a>',
      '',
      '<svg><script>window.__xss = 4</script></svg>',
      '',
      '<iframe src="javascript:parent.__xss=5"></iframe>',
    ].join('\n'),
  );
  const preview = page.getByTestId('preview');
  await expect(preview.getByText('click me')).toBeVisible();
  await preview.getByText('click me').click();
  await preview.getByText('mixed case').click();
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
  expect(dialogs).toEqual([]);
  expect(await preview.locator('[onerror], script, iframe').count()).toBe(0);
  expect(await preview.locator('a[href^="javascript" i]').count()).toBe(0);
});

test('the note list shows a note’s first words as read, not its Markdown', async ({ page }) => {
  await openApp(page);
  await createNote(
    page,
    '复习 OS review',
    '# 进程调度 Process scheduling\n\nFCFS runs in $O(n)$ time, see [the notes](https://example.com/os).\n',
  );
  await expect(
    page.getByTestId('note-item').filter({ hasText: '复习 OS review' }).locator('.excerpt'),
  ).toHaveText('进程调度 Process scheduling FCFS runs in O(n) time, see the notes.');
});

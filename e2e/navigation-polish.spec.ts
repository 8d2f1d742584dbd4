import type { Locator, Page } from '@playwright/test';
import { createNote, expect, openApp, test } from './fixtures';

/** Enough paragraphs that what follows them starts out of view. */
const filler = Array.from({ length: 60 }, (_, i) => `Paragraph ${i + 1} before the part that matters.`).join(
  '\n\n',
);

test('a wikilink address with a heading or a block lands on it, and Back still goes to the note before', async ({
  page,
  requestLog,
}) => {
  await openApp(page);
  await createNote(
    page,
    'Target',
    `# Target\n\n${filler}\n\n## Second heading\n\nUnder the heading.\n\n${filler}\n\nThe block the link names. ^b1`,
  );
  const targetId = await page
    .locator('[data-testid="note-item"][aria-current="true"]')
    .getAttribute('data-note-id');
  await createNote(page, 'Start', 'Where the reader was.');

  // Typed into the address bar (or a bookmark), with the heading after a second `#`.
  await page.evaluate(() => (location.hash = '#/wiki/Target#Second%20heading'));
  await expect(page.getByTestId('note-title')).toHaveValue('Target');
  const preview = page.getByTestId('preview');
  await expect(preview.getByRole('heading', { name: 'Second heading' })).toBeInViewport();
  // The lookup's address is replaced by the note's own, so Back goes to the note before.
  await expect(page).toHaveURL(new RegExp(`#/notes/${targetId}$`));
  await page.goBack();
  await expect(page.getByTestId('note-title')).toHaveValue('Start');
  await page.goForward();
  await expect(page.getByTestId('note-title')).toHaveValue('Target');

  // Opened afresh (a new tab) at a block id.
  await page.goto(`/#/wiki/${encodeURIComponent('Target#^b1')}`);
  await expect(page.getByTestId('note-title')).toHaveValue('Target');
  await expect(preview.getByText('The block the link names.')).toBeInViewport();
  await expect(preview.getByRole('heading', { name: 'Second heading' })).not.toBeInViewport();
  await expect(page).toHaveURL(new RegExp(`#/notes/${targetId}$`));
  expect(requestLog.foreign()).toEqual([]);
});

/** What a user sees of a cut title: an ellipsis where it is cut, and the whole title on hover. */
async function cutWithEllipsis(element: Locator, title: string): Promise<void> {
  const shown = await element.evaluate((node) => ({
    overflow: getComputedStyle(node).textOverflow,
    cut: node.scrollWidth > node.clientWidth,
  }));
  expect(shown).toEqual({ overflow: 'ellipsis', cut: true });
  await expect(element).toHaveAttribute('title', title);
}

async function newPhoneNote(page: Page, title: string): Promise<void> {
  await page.getByTestId('topbar-new-note').click();
  await page.getByTestId('note-title').fill(title);
  await page.getByTestId('note-body').fill('Body text.');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
}

test.describe('phone 390×844', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('a long title, English or Chinese, ends in an ellipsis in the editor and the list, whole on hover', async ({
    page,
  }) => {
    await openApp(page);
    for (const title of [
      'A very long note title that cannot possibly fit on one line of a phone screen',
      '操作系统课程笔记：进程调度、内存管理、文件系统与输入输出设备的完整复习提纲',
    ]) {
      await newPhoneNote(page, title);
      const input = page.getByTestId('note-title');
      await input.blur();
      await cutWithEllipsis(input, title);
      await expect(input).toHaveValue(title);

      await page.getByRole('button', { name: 'Back to list' }).click();
      const item = page.getByTestId('note-item').filter({ hasText: title });
      await expect(item).toBeVisible();
      await cutWithEllipsis(item.locator('.title'), title);
    }
  });
});

test('Ctrl/⌘+Z outside a text field undoes a deleted note as the toast’s Undo does; in a field it undoes typing', async ({
  page,
}) => {
  await openApp(page);
  await createNote(page, 'Keep me', 'Stays.');
  await createNote(page, 'Delete me', 'Comes back.');
  await page.getByTestId('trash-note').click();
  const toast = page.getByTestId('toast').filter({ hasText: 'Moved to trash' });
  await expect(toast.getByRole('button', { name: 'Undo' })).toBeVisible();
  await expect(page.getByTestId('note-item')).toHaveCount(1);
  // The pointer rests on the toast, which keeps it (and its Undo) on screen while the keys are pressed.
  await toast.hover();

  // In a text field the keys undo the typing there, and the deletion stays undoable.
  const filter = page.getByTestId('title-filter');
  await filter.focus();
  await page.keyboard.type('Kee');
  await expect(filter).toHaveValue('Kee');
  await page.keyboard.press('ControlOrMeta+z');
  await expect(filter).toHaveValue('');
  await expect(toast.getByRole('button', { name: 'Undo' })).toBeVisible();
  await expect(page.getByTestId('note-item')).toHaveCount(1);

  // Elsewhere, the note comes back and opens, and the toast goes, as after a click on Undo.
  await filter.blur();
  await page.keyboard.press('ControlOrMeta+z');
  await expect(page.getByTestId('note-title')).toHaveValue('Delete me');
  await expect(page.getByTestId('note-body')).toHaveValue('Comes back.');
  await expect(page.getByTestId('note-item')).toHaveCount(2);
  await expect(toast).toHaveCount(0);
});

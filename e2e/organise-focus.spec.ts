import type { Locator, Page } from '@playwright/test';
import { createNote, expect, openApp, test } from './fixtures';
import { importNotes, importVault } from './harness/vault-import';

const item = (page: Page, title: string) => page.getByTestId('note-item').filter({ hasText: title });
const dated = (title: string, updated: string) =>
  `---\ntitle: ${title}\nupdated_at: ${updated}T00:00:00Z\n---\nbody\n`;
const folder = (page: Page, path: string) =>
  page.locator(`[data-testid="folder-item"][data-folder="${path}"]`);

const LONG_EN = 'Kubernetes deployment strategies for the winter release';
const LONG_ZH = '关于操作系统进程调度与内存管理的详细读书笔记整理';

async function importTitles(page: Page, titles: string[]): Promise<void> {
  await importNotes(
    page,
    titles.map((title, i) => [title, `body ${i}`]),
  );
}

/**
 * How far the title's text reaches past the start of the row's buttons, in
 * pixels (0 when it ends before them): the text is cut, with its ellipsis, at
 * the end of the title's content box.
 */
function titleOverlap(row: Locator): Promise<number> {
  return row.evaluate((entry) => {
    const title = entry.querySelector('.note-item .title')!;
    const actions = entry.parentElement!.querySelector('.row-actions')!;
    const box = title.getBoundingClientRect();
    const textEnd = box.right - parseFloat(getComputedStyle(title).paddingRight);
    return Math.max(0, textEnd - actions.getBoundingClientRect().left);
  });
}

test.describe('phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('a long title ends before the pin and move buttons instead of running under them', async ({
    page,
  }) => {
    await openApp(page);
    await importTitles(page, [LONG_EN, LONG_ZH, 'short']);
    for (const title of [LONG_EN, LONG_ZH]) {
      await expect(item(page, title).locator('xpath=..').getByTestId('note-pin')).toBeVisible();
      expect(await titleOverlap(item(page, title))).toBe(0);
    }
  });
});

test.describe('desktop', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('a pinned note with a long title keeps its title clear of the buttons it always shows', async ({
    page,
  }) => {
    await openApp(page);
    await importTitles(page, [LONG_EN, 'short']);
    await item(page, LONG_EN).hover();
    await expect.poll(() => titleOverlap(item(page, LONG_EN))).toBe(0);
    await item(page, LONG_EN).locator('xpath=..').getByTestId('note-pin').click();
    await expect(item(page, LONG_EN)).toHaveAttribute('data-pinned', 'true');
    // Away from the row, and with the focus gone from its buttons, the pinned note still shows them.
    await page.getByTestId('note-count').click();
    await expect(page.locator('.row-actions:focus-within')).toHaveCount(0);
    await expect.poll(() => titleOverlap(item(page, LONG_EN))).toBe(0);
  });

  test('the keyboard keeps its place: a folder made or renamed takes the focus, and so does the move button after a move', async ({
    page,
  }) => {
    await openApp(page);
    await createNote(page, '周报', '本周完成了进程调度的实验。');

    // "+" then typing: the name field has the focus, Enter makes the folder, and the focus is on it.
    await page.getByTestId('new-folder').click();
    await expect(page.getByTestId('new-folder-name')).toBeFocused();
    await page.keyboard.type('课程');
    await page.keyboard.press('Enter');
    await expect(folder(page, '课程')).toBeFocused();

    // Escape leaves the new-folder form for the button that opened it.
    await page.getByTestId('new-folder').focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('new-folder-name')).toHaveCount(0);
    await expect(page.getByTestId('new-folder')).toBeFocused();

    // Rename: the renamed folder has the focus, under its new parent.
    await folder(page, '课程').focus();
    await page.keyboard.press('Tab');
    await expect(page.getByTestId('folder-rename')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('folder-rename-input')).toBeFocused();
    await page.getByTestId('folder-rename-input').fill('大学/课程');
    await page.keyboard.press('Enter');
    await expect(folder(page, '大学/课程')).toBeFocused();
    // Escape out of a rename goes back to the folder.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await expect(folder(page, '大学/课程')).toBeFocused();

    // Moving a note by the row's picker: the focus comes back to the row's move button.
    const move = page.getByTestId('note-move').first();
    await move.focus();
    await page.keyboard.press('Enter');
    // The picker takes the focus as it opens.
    await expect(page.getByTestId('note-move-select')).toBeFocused();
    await page.getByTestId('note-move-select').selectOption('大学/课程');
    await expect(page.getByTestId('note-move-select')).toHaveCount(0);
    await expect(folder(page, '大学/课程')).toContainText('1');
    await expect(move).toBeFocused();
  });

  test('the move picker by keyboard: arrows choose a folder, Enter moves the note, Escape moves nothing', async ({
    page,
  }) => {
    await openApp(page);
    await importVault(
      page,
      {
        'vault/Alpha/a.md': dated('In Alpha', '2026-01-03'),
        'vault/Beta/b.md': dated('In Beta', '2026-01-02'),
        'vault/loose.md': dated('Loose', '2026-01-01'),
      },
      3,
    );
    // Loose is the oldest, so the move (which updates it) takes it to the top of the list:
    // the focus has to follow it there.
    await expect(page.getByTestId('note-item').last()).toContainText('Loose');
    const alpha = page.locator('[data-testid="folder-item"][data-folder$="Alpha"]');
    const beta = page.locator('[data-testid="folder-item"][data-folder$="Beta"]');
    await expect(alpha).toContainText('1');
    await expect(beta).toContainText('1');

    const move = item(page, 'Loose').locator('xpath=..').getByTestId('note-move');
    const picker = page.getByTestId('note-move-select');
    // A closed select changes its value on an arrow key: that is a choice, not yet a move.
    await move.focus();
    await page.keyboard.press('Enter');
    await expect(picker).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(picker).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(picker).toHaveCount(0);
    await expect(move).toBeFocused();
    await expect(alpha).toContainText('1');

    await page.keyboard.press('Enter');
    await expect(picker).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect(picker).toBeFocused();
    await expect(beta).toContainText('1');
    await page.keyboard.press('Enter');
    await expect(picker).toHaveCount(0);
    await expect(beta).toContainText('2');
    await expect(alpha).toContainText('1');
    await expect(page.getByTestId('note-item').first()).toContainText('Loose');
    await expect(move).toBeFocused();
  });

  test('pinning by keyboard keeps the focus on the note pinned, so a second Space unpins the same note', async ({
    page,
  }) => {
    await openApp(page);
    for (const title of ['Alpha', 'Beta', 'Gamma']) await createNote(page, title, `${title} body`);
    const pin = (title: string) => item(page, title).locator('xpath=..').getByTestId('note-pin');
    // Newest first: Alpha is last, and pinning moves it to the top.
    await expect(page.getByTestId('note-item').last()).toContainText('Alpha');
    await pin('Alpha').focus();
    await page.keyboard.press('Space');
    await expect(item(page, 'Alpha')).toHaveAttribute('data-pinned', 'true');
    await expect(page.getByTestId('note-item').first()).toContainText('Alpha');
    await expect(pin('Alpha')).toBeFocused();
    await page.keyboard.press('Space');
    await expect(item(page, 'Alpha')).not.toHaveAttribute('data-pinned', 'true');
    await expect(page.locator('[data-testid="note-item"][data-pinned="true"]')).toHaveCount(0);
    await expect(pin('Alpha')).toBeFocused();
  });
});

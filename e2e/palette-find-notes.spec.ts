import { createNote, expect, openApp, test } from './fixtures';
import { switchLanguage } from './harness/language-steps';

/**
 * Ctrl/⌘+K finds notes the way an Obsidian user expects: by title, by a front-matter alias (saying
 * which), and, for words only in a note's text, by handing the query to the search. Ctrl/⌘+Shift+F
 * takes the keyboard to the search box from anywhere, and the shortcuts dialog lists it.
 */

test.use({ viewport: { width: 1280, height: 800 } });

test('Ctrl+K finds a note by an alias, after titles that start with the query, in English and Chinese', async ({
  page,
}) => {
  await openApp(page);
  await createNote(page, 'Release runbook', '---\naliases: [Deploy guide, 上线手册]\n---\nSteps.');
  await createNote(page, 'Deployment plan', 'Phases.');
  await createNote(page, 'Garden', 'Roses.');

  await page.keyboard.press('Control+k');
  const palette = page.getByTestId('command-palette');
  await expect(page.getByTestId('command-palette-input')).toBeFocused();
  await page.keyboard.type('deploy');
  const found = palette.getByTestId('command-palette-note');
  await expect(found).toHaveText([
    /^Deployment plan\s*Open note$/,
    /^Release runbook\s*Open note · alias “Deploy guide”$/,
  ]);
  await expect(found.nth(1)).toHaveAttribute('data-alias', 'Deploy guide');
  await expect(page.getByTestId('command-palette-results')).toHaveText('2 results');

  await page.getByTestId('command-palette-input').fill('上线');
  await expect(found).toHaveText([/^Release runbook\s*Open note · alias “上线手册”$/]);
  await page.keyboard.press('Enter');
  await expect(palette).toBeHidden();
  await expect(page.getByTestId('note-title')).toHaveValue('Release runbook');
  await expect(page.getByTestId('note-title')).toBeFocused();
});

test('Ctrl+K offers to search the notes’ text, and Enter shows the results with the query in the box', async ({
  page,
}) => {
  await openApp(page);
  await createNote(page, 'Garden plan', 'The tomatoes need staking in June.');
  await createNote(page, 'Shopping', 'Bread.');

  await page.keyboard.press('Control+k');
  await expect(page.getByTestId('command-palette-input')).toBeFocused();
  await page.keyboard.type('staking');
  const palette = page.getByTestId('command-palette');
  await expect(palette.getByTestId('command-palette-search')).toHaveText(
    /^Search notes for “staking”\s*Finds the words in note text too$/,
  );
  await expect(palette.getByTestId('command-palette-note')).toHaveCount(0);
  await expect(page.getByTestId('command-palette-results')).toHaveText('Nothing matches “staking”.');
  await page.keyboard.press('Enter');

  await expect(palette).toBeHidden();
  const box = page.getByTestId('search-input');
  await expect(box).toHaveValue('staking');
  await expect(box).toBeFocused();
  await expect(page.getByTestId('search-result-title')).toHaveText(['Garden plan']);
  await expect(page).toHaveURL(/#\/search\?q=staking$/);
});

test('Ctrl+Shift+F goes to the search box from the editor and from another view, and is listed', async ({
  page,
}) => {
  await openApp(page);
  await createNote(page, 'Garden plan', 'The tomatoes need staking in June.');
  const box = page.getByTestId('search-input');

  // From the note's text: the editor does not keep the key.
  await page.getByTestId('note-body').focus();
  await page.keyboard.press('Control+Shift+F');
  await expect(box).toBeFocused();
  await page.keyboard.type('staking');
  await expect(page.getByTestId('search-result-title')).toHaveText(['Garden plan']);

  // From the Chat view: the notebook comes back with the search as it was, its query selected.
  await page.getByTestId('nav-chat').click();
  await expect(page.getByTestId('shell')).toHaveAttribute('data-view', 'chat');
  await page.keyboard.press('Control+Shift+F');
  await expect(page.getByTestId('shell')).toHaveAttribute('data-view', 'notes');
  await expect(box).toBeFocused();
  await expect(box).toHaveValue('staking');
  await page.keyboard.type('June');
  await expect(box).toHaveValue('June');

  // The shortcuts dialog reads the same table the key is answered from.
  await page.keyboard.press('Control+/');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  const row = dialog.locator('[data-shortcut="focus-search"]');
  await expect(row).toContainText('Ctrl+Shift+F');
  await expect(row).toContainText('Search notes: go to the search box');
  await expect(row).toHaveAttribute('aria-keyshortcuts', 'Control+Shift+F Meta+Shift+F');
});

test('中文界面：Ctrl+K 按中文别名找到笔记，并可在正文中搜索', async ({ page }) => {
  await openApp(page);
  await createNote(page, '项目周报', '---\naliases: [周会记录]\n---\n本周完成了接口联调。');
  await switchLanguage(page, 'zh-CN');

  await page.keyboard.press('Control+k');
  await expect(page.getByTestId('command-palette-input')).toBeFocused();
  await page.keyboard.type('会记');
  await expect(page.getByTestId('command-palette-input')).toHaveValue('会记');
  const palette = page.getByTestId('command-palette');
  await expect(palette.getByTestId('command-palette-note')).toHaveText([
    /^项目周报\s*打开笔记 · 别名“周会记录”$/,
  ]);
  await expect(palette.getByTestId('command-palette-search')).toContainText('在笔记中搜索“会记”');

  await page.getByTestId('command-palette-input').fill('联调');
  await palette.getByTestId('command-palette-search').click();
  await expect(page.getByTestId('search-input')).toHaveValue('联调');
  await expect(page.getByTestId('search-result-title')).toHaveText(['项目周报']);
});

test('keys typed straight after the first Ctrl+K land in the palette, not in the note being edited', async ({
  page,
}) => {
  await openApp(page);
  const body = '---\naliases: [Deploy guide]\n---\nSteps.';
  await createNote(page, 'Release runbook', body);
  // Once the app is idle the palette is there, closed, before anyone asks for it.
  await expect(page.getByTestId('command-palette')).toBeAttached();
  await expect(page.getByTestId('note-body')).toBeFocused();

  await page.keyboard.press('Control+k');
  await page.keyboard.type('deploy g');
  const input = page.getByTestId('command-palette-input');
  await expect(input).toBeFocused();
  await expect(input).toHaveValue('deploy g');
  await expect(page.getByTestId('command-palette').getByTestId('command-palette-note')).toHaveText([
    /^Release runbook\s*Open note · alias “Deploy guide”$/,
  ]);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('note-body')).toHaveValue(body);
});

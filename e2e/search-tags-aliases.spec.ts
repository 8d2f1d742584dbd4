import type { Page } from '@playwright/test';
import { createNote, expect, openApp, test } from './fixtures';
import { importVault } from './harness/vault-import';

/**
 * An Obsidian vault user searches by tag and by a note's other names: a
 * `#tag` query finds the notes the sidebar's tag shows (front matter or
 * inline), and an alias finds its note as `[[alias]]` opens it.
 */

const vault = {
  // Tagged in front matter only: the word "os" is nowhere in their text.
  'vault/Kernel.md': '---\ntags: os\n---\nThe kernel runs in ring 0.\n',
  'vault/Paging.md': '---\ntags: [OS, memory]\n---\nPages map virtual addresses to frames.\n',
  'vault/Shell.md': 'A shell talks to the kernel through system calls. #os\n',
  // Says "os" without the tag: not one of the tagged notes.
  'vault/Mac.md': 'My os is macOS.\n',
  'vault/Deadlock.md':
    '---\naliases: [死锁]\n---\nFour conditions must hold at once.\n\nBreak one of them.\n',
};

const titles = (page: Page) => page.getByTestId('search-result-title');
const search = (page: Page) => page.getByTestId('search-input');

test('#tag and tag: find every note with the tag, front matter or inline, in every mode', async ({
  page,
}) => {
  await openApp(page);
  await importVault(page, vault, 5);
  await expect(page.locator('[data-testid="tag-item"][data-tag="os"] .count')).toHaveText('3');

  for (const mode of ['fts', 'vector', 'hybrid'] as const) {
    await page.getByTestId('search-mode').selectOption(mode);
    for (const query of ['#os', 'tag:OS']) {
      await search(page).fill(query);
      await expect(titles(page)).toHaveText(['Kernel', 'Paging', 'Shell']);
      await expect(page.getByTestId('search-total')).toHaveText('3 matches in 3 notes');
    }
  }
  await page.getByTestId('search-mode').selectOption('fts');
  // Words beside the tag are searched among the tagged notes only.
  await search(page).fill('#os kernel');
  await expect(titles(page)).toHaveText(['Kernel', 'Shell']);
  await search(page).fill('#os macos');
  await expect(page.getByTestId('search-no-results')).toBeVisible();
});

test('a front-matter alias finds its note, and an alias written in the editor is found once saved', async ({
  page,
}) => {
  await openApp(page);
  await importVault(page, vault, 5);

  await search(page).fill('死锁');
  await expect(titles(page)).toHaveText(['Deadlock']);
  // The note shows from its beginning: the alias names the whole note.
  await expect(page.getByTestId('search-result').first()).toContainText('Four conditions must hold at once.');

  // Written in the editor: the alias is found by its beginning too (search as you type).
  await search(page).fill('');
  await createNote(
    page,
    'Round robin',
    '---\naliases:\n  - Process Scheduling\n---\nEach task gets a time slice.',
  );
  await search(page).fill('sched');
  await expect(titles(page)).toHaveText(['Round robin']);
  await search(page).fill('process scheduling');
  await expect(titles(page)).toHaveText(['Round robin']);
});

test('nothing found for one word says to check it; for several words, to space them or use fewer', async ({
  page,
}) => {
  await openApp(page);
  await importVault(page, vault, 5);
  const hint = page.getByTestId('search-no-results-hint');

  for (const word of ['xqzvbnm', '靐龘']) {
    await search(page).fill(word);
    await expect(page.getByTestId('search-no-results')).toContainText(`Nothing matches “${word}”.`);
    await expect(hint).toHaveText(
      'Check the spelling, type only the beginning of the word (“sched” finds “scheduling”), or try another word.',
    );
  }
  await search(page).fill('xqzvbnm qwpzk');
  await expect(hint).toContainText('Put spaces between words');
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('一个查不到的词提示检查拼写，而不是用空格分词', async ({ page }) => {
    await openApp(page);
    await importVault(page, vault, 5);
    await search(page).fill('靐龘');
    await expect(page.getByTestId('search-no-results-hint')).toHaveText(
      '检查一下拼写，或只输入词的开头（如“sched”能找到“scheduling”），或换个词再试。',
    );
    await search(page).fill('集群监控');
    await expect(page.getByTestId('search-no-results-hint')).toContainText('用空格把词分开');
  });
});

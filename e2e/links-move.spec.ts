import type { Page } from '@playwright/test';
import { expect, openApp, test } from './fixtures';
import { importVault } from './harness/vault-import';

/**
 * Obsidian path links (`[[folder/note]]`) keep opening their note when it is
 * moved to another folder, or its folder is renamed, from the sidebar.
 */
test.use({ viewport: { width: 1280, height: 800 } });

const item = (page: Page, text: string) => page.getByTestId('note-item').filter({ hasText: text });
const folder = (page: Page, path: string) =>
  page.locator(`[data-testid="folder-item"][data-folder="${path}"]`);

/** Opens Index and checks its link: not missing, named as expected, and opening the note it should. */
async function followLink(page: Page, label: string, target: string, body: RegExp): Promise<void> {
  await item(page, 'Index').click();
  await expect(page.getByTestId('note-title')).toHaveValue('Index');
  const link = page.getByTestId('preview').locator('a.wikilink', { hasText: label });
  await expect(link).toHaveAttribute('data-wikilink', target);
  await expect(link).not.toHaveAttribute('data-missing');
  await link.click();
  await expect(page.getByTestId('note-body')).toHaveValue(body);
  await expect(page.getByTestId('confirm-accept')).toBeHidden();
  await expect(page.getByTestId('backlink').filter({ hasText: 'Index' })).toHaveCount(1);
}

test('a path link follows its note moved to another folder with the row’s move button', async ({
  page,
  requestLog,
}) => {
  await openApp(page);
  await importVault(
    page,
    {
      'Vault/操作系统/进程调度.md': '# 进程调度\n\n## 时间片\n\nRound robin gives each process a time slice.',
      'Vault/网络/进程调度.md': '# 另一门课的同名笔记\n\nNothing about CPUs here.',
      'Vault/归档/旧笔记.md': 'Kept for the archive.',
      'Vault/Index.md':
        'See [[操作系统/进程调度|Scheduling]] and [[操作系统/进程调度.md#时间片|the time slice]].',
    },
    4,
  );

  const moved = item(page, 'Round robin');
  await moved.focus();
  await page.locator('.note-entry').filter({ has: moved }).getByTestId('note-move').click();
  await page.getByTestId('note-move-select').selectOption('归档');
  await expect(folder(page, '归档')).toContainText('2');
  await expect(folder(page, '操作系统')).toHaveCount(0);

  await followLink(page, 'Scheduling', '归档/进程调度', /Round robin/);
  await expect(page.getByTestId('note-folder')).toHaveValue('归档');
  await item(page, 'Index').click();
  await expect(page.getByTestId('note-body')).toHaveValue(
    'See [[归档/进程调度|Scheduling]] and [[归档/进程调度.md#时间片|the time slice]].',
  );
  // The heading link opens the moved note too, not its namesake in 网络.
  const timeSlice = page.getByTestId('preview').locator('a.wikilink', { hasText: 'the time slice' });
  await expect(timeSlice).not.toHaveAttribute('data-missing');
  await timeSlice.click();
  await expect(page.getByTestId('note-body')).toHaveValue(/Round robin/);
  expect(requestLog.foreign()).toEqual([]);
});

test('path links into a renamed folder follow it', async ({ page, requestLog }) => {
  await openApp(page);
  await importVault(
    page,
    {
      'Vault/课程/操作系统/Scheduling.md': 'Round robin gives each process a time slice.',
      'Vault/Index.md': 'Read [[课程/操作系统/Scheduling#Part|the scheduling notes]] first.',
    },
    2,
  );
  await expect(folder(page, '课程/操作系统')).toBeVisible();

  await folder(page, '课程/操作系统').hover();
  await page.getByRole('button', { name: 'Rename or move 操作系统', exact: true }).click();
  await page.getByTestId('folder-rename-input').fill('课程/OS');
  await page.getByTestId('folder-rename-input').press('Enter');
  await expect(folder(page, '课程/OS')).toContainText('1');
  await expect(folder(page, '课程/操作系统')).toHaveCount(0);

  await followLink(page, 'the scheduling notes', '课程/OS/Scheduling', /Round robin/);
  await item(page, 'Index').click();
  await expect(page.getByTestId('note-body')).toHaveValue(
    'Read [[课程/OS/Scheduling#Part|the scheduling notes]] first.',
  );
  expect(requestLog.foreign()).toEqual([]);
});

test('the open note that links to a moved note shows the rewritten link, its own typing kept', async ({
  page,
  requestLog,
}) => {
  await openApp(page);
  await importVault(
    page,
    {
      'Vault/操作系统/进程调度.md': 'Round robin gives each process a time slice.',
      'Vault/归档/旧笔记.md': 'Kept for the archive.',
      'Vault/Index.md': 'See [[操作系统/进程调度|Scheduling]].',
    },
    3,
  );
  await item(page, 'Index').click();
  await expect(page.getByTestId('note-title')).toHaveValue('Index');
  // Typed and not yet saved when the other note is moved from its row.
  await page.getByTestId('note-body').press('End');
  await page.getByTestId('note-body').pressSequentially(' Then read it twice.');

  const moved = item(page, 'Round robin');
  await page.locator('.note-entry').filter({ has: moved }).getByTestId('note-move').click();
  await page.getByTestId('note-move-select').selectOption('归档');
  await expect(folder(page, '操作系统')).toHaveCount(0);

  await expect(page.getByTestId('note-title')).toHaveValue('Index');
  await expect(page.getByTestId('note-body')).toHaveValue(
    'See [[归档/进程调度|Scheduling]]. Then read it twice.',
  );
  const link = page.getByTestId('preview').locator('a.wikilink', { hasText: 'Scheduling' });
  await expect(link).not.toHaveAttribute('data-missing');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await expect(page.getByTestId('conflict-banner')).toHaveCount(0);
  expect(requestLog.foreign()).toEqual([]);
});

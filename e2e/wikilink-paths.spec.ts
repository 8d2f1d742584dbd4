import { expect, openApp, test } from './fixtures';
import { importVault } from './harness/vault-import';

/**
 * An Obsidian vault whose links name a folder as well as a title
 * (`[[folder/note]]`), as Obsidian writes them when two notes share a title.
 */
const vault = {
  'Vault/操作系统/进程调度.md': '# 进程调度\n\n## 时间片\n\nRound robin gives each process a time slice.',
  'Vault/网络/进程调度.md': '# 另一门课的同名笔记\n\nNothing about CPUs here.',
  'Vault/Index.md':
    'See [[操作系统/进程调度|Scheduling]] and [[操作系统/进程调度.md#时间片|the time slice]].',
};

test('an Obsidian path link opens the note in that folder, is its backlink, and follows a rename', async ({
  page,
  requestLog,
}) => {
  await openApp(page);
  await importVault(page, vault, 3);
  await page.getByTestId('note-item').filter({ hasText: 'Index' }).click();
  await expect(page.getByTestId('note-title')).toHaveValue('Index');

  // Both links name a note that exists: neither is shown as missing.
  const preview = page.getByTestId('preview');
  const scheduling = preview.locator('a.wikilink', { hasText: 'Scheduling' });
  const timeSlice = preview.locator('a.wikilink', { hasText: 'the time slice' });
  await expect(scheduling).toHaveAttribute('data-wikilink', '操作系统/进程调度');
  await expect(scheduling).not.toHaveAttribute('data-missing');
  await expect(scheduling).not.toHaveAttribute('title');
  await expect(timeSlice).not.toHaveAttribute('data-missing');

  // The link opens the note in 操作系统, not the one of the same title in 网络, and offers to create nothing.
  await scheduling.click();
  await expect(page.getByTestId('note-title')).toHaveValue('进程调度');
  await expect(page.getByTestId('note-body')).toHaveValue(/Round robin/);
  await expect(page.getByTestId('confirm-accept')).toBeHidden();
  const backlink = page.getByTestId('backlink').filter({ hasText: 'Index' });
  await expect(backlink).toHaveCount(1);

  // The link with `.md` and a heading opens the same note.
  await backlink.click();
  await expect(page.getByTestId('note-title')).toHaveValue('Index');
  await timeSlice.click();
  await expect(page.getByTestId('note-title')).toHaveValue('进程调度');
  await expect(page.getByTestId('note-body')).toHaveValue(/Round robin/);

  // Renaming the note rewrites the path links in Index, keeping folder, `.md`, heading and label.
  await page.getByTestId('note-title').fill('CPU 调度');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await page.getByTestId('note-title').blur();
  await backlink.click();
  await expect(page.getByTestId('note-title')).toHaveValue('Index');
  await expect(page.getByTestId('note-body')).toHaveValue(
    'See [[操作系统/CPU 调度|Scheduling]] and [[操作系统/CPU 调度.md#时间片|the time slice]].',
  );
  await expect(scheduling).toHaveAttribute('data-wikilink', '操作系统/CPU 调度');
  await expect(scheduling).not.toHaveAttribute('data-missing');
  await scheduling.click();
  await expect(page.getByTestId('note-title')).toHaveValue('CPU 调度');
  await expect(backlink).toHaveCount(1);
  // The note of the old title in 网络 is still there, untouched, and Index does not link to it.
  await page.getByTestId('note-item').filter({ hasText: '另一门课' }).click();
  await expect(page.getByTestId('note-title')).toHaveValue('进程调度');
  await expect(page.getByTestId('note-body')).toHaveValue(/Nothing about CPUs/);
  await expect(page.getByTestId('backlink')).toHaveCount(0);
  expect(requestLog.foreign()).toEqual([]);
});

import type { Page } from '@playwright/test';
import { addScriptProvider, pickScriptModel } from './harness/agent-steps';
import { textStream, toolCallStream, toolMessages } from './harness/openai-script-server';
import { createNote, expect, openApp, test } from './fixtures';

/**
 * A model that lists the notes, then asks to organise the one titled `title`
 * with `args`, then answers `answer`: the note id comes from the app's own
 * notes.list answer, as a real model's would.
 */
function organiseScript(title: string, args: Record<string, unknown>, answer: string) {
  return (body: Record<string, unknown>): string => {
    const results = toolMessages(body);
    if (results.length === 0) return toolCallStream('notes__list', {});
    if (results.length === 1) {
      const line = (results[0]?.content ?? '').split('\n').find((row) => row.startsWith(`- ${title} (`));
      const noteId = /note_id ([^,)]+)/.exec(line ?? '')?.[1] ?? 'not-listed';
      return toolCallStream('notes__organise', { note_id: noteId, ...args });
    }
    return textStream(answer);
  };
}

const folder = (page: Page, path: string) =>
  page.locator(`[data-testid="folder-item"][data-folder="${path}"]`);
const tag = (page: Page, name: string) => page.locator(`[data-testid="tag-item"][data-tag="${name}"]`);

test('the agent moves a note into a folder and tags it, after asking in words', async ({
  page,
  requestLog,
  scriptServer,
}) => {
  const server = await scriptServer({
    reply: organiseScript(
      '进程调度',
      { folder: '操作系统', add_tags: ['数据库'] },
      'Moved 进程调度 into 操作系统 and tagged it 数据库.',
    ),
  });
  await openApp(page);
  await createNote(page, 'Deadlock', '# Deadlock\n');
  await createNote(page, '进程调度', '# 进程调度\n\nFCFS、SJF、RR。\n');
  await addScriptProvider(page, server.url);
  await pickScriptModel(page);
  await expect(page.locator('[data-testid="agent-tool"][data-tool="notes.organise"]')).toContainText(
    'Moves a note into a folder and adds or removes its tags.',
  );

  await page
    .getByTestId('agent-input')
    .fill('Move my 进程调度 note into the folder 操作系统 and tag it 数据库');
  await page.getByTestId('agent-run').click();
  const permission = page.getByTestId('agent-permission');
  await expect(permission.getByTestId('permission-summary')).toHaveText(
    'Move “进程调度” to the folder “操作系统”. Tag “进程调度” with #数据库.',
  );
  await permission.getByTestId('permission-allow-once').click();
  await expect(page.getByTestId('agent-run-item').first()).toHaveAttribute('data-status', 'completed');
  const timeline = page.getByTestId('agent-timeline');
  await expect(timeline.locator('[data-event="RunCompleted"]')).toContainText('Moved 进程调度 into 操作系统');

  // The notebook shows the move and the tag: in the sidebar, the filtered list and the note itself.
  await page.getByTestId('nav-all').click();
  await expect(folder(page, '操作系统')).toContainText('1');
  await expect(tag(page, '数据库')).toBeVisible();
  await folder(page, '操作系统').click();
  await expect(page.getByTestId('note-item')).toHaveText([/进程调度/]);
  await page.getByTestId('note-item').filter({ hasText: '进程调度' }).click();
  await expect(page.getByTestId('note-folder')).toHaveValue('操作系统');
  await expect(page.getByTestId('note-tags')).toHaveValue('数据库');
  await expect(page.getByTestId('note-body')).toHaveValue('# 进程调度\n\nFCFS、SJF、RR。\n');
  expect(requestLog.foreign().filter((url) => !url.startsWith(server.url))).toEqual([]);
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('the prompt says in Chinese that a note leaves its folder and loses a tag', async ({
    page,
    scriptServer,
  }) => {
    const server = await scriptServer({
      reply: organiseScript(
        '进程调度',
        { folder: '', remove_tags: ['草稿'], add_tags: ['操作系统'] },
        '好了。',
      ),
    });
    await openApp(page);
    await createNote(page, '进程调度', '# 进程调度\n');
    await page.getByTestId('note-folder').fill('课程');
    await page.getByTestId('note-tags').fill('草稿');
    await page.getByTestId('note-tags').blur();
    await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
    await expect(folder(page, '课程')).toBeVisible();
    await addScriptProvider(page, server.url);
    await page.getByTestId('nav-agent').click();
    await page.getByTestId('agent-model').selectOption({ label: 'Script · script-model' });

    await page.getByTestId('agent-input').fill('把进程调度移出文件夹，去掉草稿标签，加上操作系统标签');
    await page.getByTestId('agent-run').click();
    const permission = page.getByTestId('agent-permission');
    await expect(permission.getByTestId('permission-summary')).toHaveText(
      '把“进程调度”移出文件夹，放到顶层。给“进程调度”加上标签 #操作系统。移除“进程调度”的标签 #草稿。',
    );
    await permission.getByTestId('permission-allow-once').click();
    await expect(page.getByTestId('agent-run-item').first()).toHaveAttribute('data-status', 'completed');

    await page.getByTestId('nav-all').click();
    await expect(tag(page, '操作系统')).toBeVisible();
    await expect(tag(page, '草稿')).toHaveCount(0);
    await page.getByTestId('note-item').filter({ hasText: '进程调度' }).click();
    await expect(page.getByTestId('note-folder')).toHaveValue('');
    await expect(page.getByTestId('note-tags')).toHaveValue('操作系统');

    // The history says where the note was; one click undoes the agent's move and tags.
    await page.getByTestId('history-open').click();
    const history = page.getByTestId('history-dialog');
    await history.locator('[data-testid="history-version"][data-origin="agent"]').click();
    await expect(history.getByTestId('history-place')).toHaveText(
      '这次修改之前，笔记位于“课程”，标签：#草稿。恢复后会回到那里。',
    );
    await page.keyboard.press('Escape');
    await expect(history).toBeHidden();
    await page.getByTestId('agent-undo').click();
    await expect(page.getByTestId('note-folder')).toHaveValue('课程');
    await expect(page.getByTestId('note-tags')).toHaveValue('草稿');
    await expect(folder(page, '课程')).toContainText('1');
    await expect(tag(page, '草稿')).toBeVisible();
    await expect(tag(page, '操作系统')).toHaveCount(0);
    await expect(page.getByTestId('agent-undo')).toHaveCount(0);
  });
});

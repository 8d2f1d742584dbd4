import type { Page } from '@playwright/test';
import { addScriptProvider, pickScriptModel } from './harness/agent-steps';
import { textStream, toolCallStream, toolMessages } from './harness/openai-script-server';
import { expect, openApp, test } from './fixtures';

const BODY = '# 进程调度\n\nFCFS、SJF、RR：先来先服务、短作业优先、时间片轮转。\n';

/** Asks the scripted model for a summary note; it creates 进程调度, allowed once. */
async function agentCreatesNote(page: Page, serverUrl: string): Promise<void> {
  await openApp(page);
  await addScriptProvider(page, serverUrl);
  await pickScriptModel(page);
  await page.getByTestId('agent-input').fill('Make a note 进程调度 summarising FCFS, SJF and RR');
  await page.getByTestId('agent-run').click();
  await page.getByTestId('agent-permission').getByTestId('permission-allow-once').click();
  await expect(page.getByTestId('agent-run-item').first()).toHaveAttribute('data-status', 'completed');
  await page.getByTestId('nav-all').click();
  await page.getByTestId('note-item').filter({ hasText: '进程调度' }).click();
  await expect(page.getByTestId('note-body')).toHaveValue(BODY);
}

/** Whether the stored note titled `title` is in the trash, read straight from IndexedDB. */
function trashedInStore(page: Page, title: string): Promise<boolean | null> {
  return page.evaluate(
    (wanted) =>
      new Promise<boolean | null>((resolve, reject) => {
        const open = indexedDB.open('notes-agent');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const request = open.result.transaction('notes').objectStore('notes').getAll();
          request.onerror = () => reject(request.error);
          request.onsuccess = () => {
            const note = (request.result as Array<{ title: string; deleted_at: string | null }>).find(
              (row) => row.title === wanted,
            );
            open.result.close();
            resolve(note ? note.deleted_at !== null : null);
          };
        };
      }),
    title,
  );
}

/** A model that creates 进程调度, then says so. */
function creatingModel() {
  return (body: Record<string, unknown>): string =>
    toolMessages(body).length > 0
      ? textStream('Created 进程调度.')
      : toolCallStream('notes__create', { title: '进程调度', body: BODY });
}

test('undoing the agent’s new note moves it to the trash, and the trash’s Undo brings it back', async ({
  page,
  scriptServer,
}) => {
  const server = await scriptServer({ reply: creatingModel() });
  await agentCreatesNote(page, server.url);

  const undo = page.getByTestId('agent-undo');
  await expect(undo).toHaveText('Undo agent change');
  await expect(undo).toHaveAttribute('title', 'Moves the note the agent created to the trash');
  await undo.click();

  const toast = page
    .getByTestId('toast')
    .filter({ hasText: 'The note the agent created was moved to the trash.' });
  await expect(toast.getByRole('button', { name: 'Undo' })).toBeVisible();
  await expect(page.getByTestId('note-item').filter({ hasText: '进程调度' })).toHaveCount(0);
  await expect(page.getByTestId('note-body')).toHaveCount(0);
  await expect.poll(() => trashedInStore(page, '进程调度')).toBe(true);

  await toast.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByTestId('note-item').filter({ hasText: '进程调度' })).toHaveCount(1);
  await expect(page.getByTestId('note-body')).toHaveValue(BODY);
  await expect.poll(() => trashedInStore(page, '进程调度')).toBe(false);
  // Undone once: the restored note is no longer offered for removal.
  await expect(page.getByTestId('agent-undo')).toHaveCount(0);
});

test('once the user has written in the agent’s new note, it is no longer offered for removal', async ({
  page,
  scriptServer,
}) => {
  const server = await scriptServer({ reply: creatingModel() });
  await agentCreatesNote(page, server.url);
  await expect(page.getByTestId('agent-undo')).toBeVisible();

  const body = page.getByTestId('note-body');
  await body.fill(`${BODY}\n我的补充：多级反馈队列。\n`);
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await expect(page.getByTestId('agent-undo')).toHaveCount(0);
  await expect(body).toHaveValue(`${BODY}\n我的补充：多级反馈队列。\n`);
  expect(await trashedInStore(page, '进程调度')).toBe(false);
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('the undo of a new note says in Chinese that it went to the trash', async ({ page, scriptServer }) => {
    const server = await scriptServer({ reply: creatingModel() });
    await openApp(page);
    await addScriptProvider(page, server.url);
    await page.getByTestId('nav-agent').click();
    await page.getByTestId('agent-model').selectOption({ label: 'Script · script-model' });
    await page.getByTestId('agent-input').fill('新建一条笔记“进程调度”，总结调度算法');
    await page.getByTestId('agent-run').click();
    await page.getByTestId('agent-permission').getByTestId('permission-allow-once').click();
    await expect(page.getByTestId('agent-run-item').first()).toHaveAttribute('data-status', 'completed');
    await page.getByTestId('nav-all').click();
    await page.getByTestId('note-item').filter({ hasText: '进程调度' }).click();

    const undo = page.getByTestId('agent-undo');
    await expect(undo).toHaveText('撤销智能体的修改');
    await expect(undo).toHaveAttribute('title', '把智能体创建的这条笔记移到回收站');
    await undo.click();
    await expect(
      page.getByTestId('toast').filter({ hasText: '智能体创建的笔记已移到回收站。' }),
    ).toBeVisible();
    await expect(page.getByTestId('note-item').filter({ hasText: '进程调度' })).toHaveCount(0);
  });
});

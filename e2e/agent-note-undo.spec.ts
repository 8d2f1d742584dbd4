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

test('a note the agent created and then edited in one run: Undo takes back the edit, then the note', async ({
  page,
  scriptServer,
}) => {
  const ADDED = '## 小结\n\n多级反馈队列兼顾两者。';
  const server = await scriptServer({
    reply: (body) => {
      const results = toolMessages(body);
      if (results.length === 0) return toolCallStream('notes__create', { title: '进程调度', body: BODY });
      if (results.length === 1) {
        const noteId = /note_[0-9a-f]{32}/.exec(results[0]?.content ?? '')?.[0] ?? '';
        return toolCallStream('notes__update', { note_id: noteId, mode: 'append', text: ADDED });
      }
      return textStream('Created 进程调度 and added a summary.');
    },
  });
  await openApp(page);
  await addScriptProvider(page, server.url);
  await pickScriptModel(page);
  await page.getByTestId('agent-input').fill('Make a note 进程调度, then add a summary');
  await page.getByTestId('agent-run').click();
  // Two writes, two prompts: the second is a new request, never the first one still on screen.
  const first = page.getByTestId('agent-permission');
  const firstId = await first.getAttribute('data-request-id');
  await first.getByTestId('permission-allow-once').click();
  await page
    .locator(`[data-testid="agent-permission"]:not([data-request-id="${firstId}"])`)
    .getByTestId('permission-allow-once')
    .click();
  await expect(page.getByTestId('agent-run-item').first()).toHaveAttribute('data-status', 'completed');
  await page.getByTestId('nav-all').click();
  await page.getByTestId('note-item').filter({ hasText: '进程调度' }).click();
  const body = page.getByTestId('note-body');
  await expect(body).toHaveValue(/多级反馈队列兼顾两者。/);

  // First the edit: the note is back to what the agent created, and Undo now offers the creation.
  const undo = page.getByTestId('agent-undo');
  await expect(undo).toHaveAttribute('data-undoes', 'change');
  await undo.click();
  await expect(page.getByTestId('toast').filter({ hasText: 'The agent’s change was undone.' })).toBeVisible();
  await expect(body).toHaveValue(BODY);
  await expect(undo).toHaveAttribute('data-undoes', 'creation');
  await expect(undo).toHaveAttribute('title', 'Moves the note the agent created to the trash');

  // The history names each step; the creation's blank note is explained, not offered for restore.
  await page.getByTestId('history-open').click();
  const dialog = page.getByTestId('history-dialog');
  await expect(dialog.getByTestId('history-version').locator('.origin')).toHaveText([
    'Restore',
    'Agent',
    'Agent (created the note)',
  ]);
  await dialog.getByTestId('history-version').last().click();
  await expect(dialog.getByTestId('history-creation')).toHaveText(
    'The blank note before the agent wrote it. To remove the note, use “Undo agent change” or move it to the trash.',
  );
  await expect(dialog.getByTestId('history-diff')).toContainText('+# 进程调度');
  await expect(dialog.getByTestId('history-restore')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Close' }).click();

  // Then the creation: to the trash, with the usual Undo.
  await undo.click();
  await expect(
    page.getByTestId('toast').filter({ hasText: 'The note the agent created was moved to the trash.' }),
  ).toBeVisible();
  await expect(page.getByTestId('note-item').filter({ hasText: '进程调度' })).toHaveCount(0);
  await expect.poll(() => trashedInStore(page, '进程调度')).toBe(true);
  // As after "Move to trash": the list is empty now, so the keyboard goes on to "New note".
  await expect(page.getByTestId('new-note')).toBeFocused();
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

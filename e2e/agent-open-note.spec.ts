import type { Page } from '@playwright/test';
import { addScriptProvider, pickScriptModel } from './harness/agent-steps';
import {
  textStream,
  toolCallStream,
  toolMessages,
  type StartScriptServer,
} from './harness/openai-script-server';
import { createNote, expect, openApp, storedBody, test } from './fixtures';

const BODY = '# 进程调度\n\nFCFS、SJF、RR。\n';
const ADDED = '## 多级反馈队列\n\n按优先级分成几个队列，时间片逐级加长。';
const AGENT_BODY = `${BODY}\n${ADDED}\n`;

interface HeldRun {
  noteId: string;
  /** Lets the held model answer: the run then appends ADDED to 进程调度. */
  answer: () => void;
}

/**
 * The note 进程调度 exists; a first run (note writes allowed for good) makes a
 * scratch note, and a second run, asked while the Agent view is shown, holds
 * its model's answer until the test lets it go — by then the user is in the
 * notebook with 进程调度 open.
 */
async function holdAppendRun(page: Page, scriptServer: StartScriptServer): Promise<HeldRun> {
  let runs = 0;
  let answer: () => void = () => undefined;
  const answered = new Promise<void>((resolve) => (answer = resolve));
  let noteId = '';
  const server = await scriptServer({
    reply: async (body) => {
      if (toolMessages(body).length > 0) return textStream('Done.');
      runs += 1;
      if (runs === 1) return toolCallStream('notes__create', { title: 'Scratch', body: 'scratch\n' });
      await answered;
      return toolCallStream('notes__update', { note_id: noteId, mode: 'append', text: ADDED });
    },
  });
  await openApp(page);
  await createNote(page, '进程调度', BODY);
  noteId = (await page.evaluate(() => localStorage.getItem('notesagent.last-note'))) ?? '';
  expect(noteId).not.toBe('');
  await addScriptProvider(page, server.url);
  await pickScriptModel(page);

  await page.getByTestId('agent-input').fill('Make a scratch note');
  await page.getByTestId('agent-run').click();
  await page.getByTestId('agent-permission').getByTestId('permission-always').click();
  await expect(page.getByTestId('agent-run-item').first()).toHaveAttribute('data-status', 'completed');

  await page.getByTestId('agent-input').fill('Add multilevel feedback queues to 进程调度');
  await page.getByTestId('agent-run').click();
  await expect(page.getByTestId('agent-run-phase')).toHaveText(
    'Waiting for Script · script-model to answer…',
  );
  await page.getByTestId('nav-all').click();
  await page.getByTestId('note-item').filter({ hasText: '进程调度' }).click();
  await expect(page.getByTestId('note-body')).toHaveValue(BODY);
  return { noteId, answer };
}

test('an agent run writing the open note shows its text in the editor at once, and typing on saves', async ({
  page,
  scriptServer,
}) => {
  const { noteId, answer } = await holdAppendRun(page, scriptServer);
  const body = page.getByTestId('note-body');
  // The user reads with the caret in the text, typing nothing.
  await body.click();
  await expect(body).toBeFocused();
  await body.evaluate((input: HTMLTextAreaElement) => input.setSelectionRange(5, 5));
  await expect(page.getByTestId('agent-undo')).toHaveCount(0);

  answer();
  await expect(body).toHaveValue(AGENT_BODY);
  await expect(body).toBeFocused();
  // The caret stays in the heading the user was reading, not at the end of the new text.
  expect(
    await body.evaluate((input: HTMLTextAreaElement) => [input.selectionStart, input.selectionEnd]),
  ).toEqual([5, 5]);
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await expect(page.getByTestId('conflict-banner')).toHaveCount(0);
  await expect(page.getByTestId('agent-undo')).toBeVisible();

  // Typing on the agent's text is a plain save, not a conflict.
  await body.press('Control+End');
  await body.pressSequentially('我的补充。');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await expect(page.getByTestId('conflict-banner')).toHaveCount(0);
  expect(await storedBody(page, noteId)).toBe(`${AGENT_BODY}我的补充。`);
});

test('an agent run writing the open note while the user has unsaved text keeps both texts', async ({
  page,
  scriptServer,
}) => {
  const { noteId, answer } = await holdAppendRun(page, scriptServer);
  const body = page.getByTestId('note-body');
  // The page's timers stand still from here: the typed text stays unsaved, as
  // it is between a key and the autosave, until the test moves time on.
  await page.clock.install();
  await page.clock.pauseAt(new Date(Date.now() + 60_000));
  const mine = `${BODY}\n我自己写的：短作业优先可能饿死长作业。\n`;
  await body.fill(mine);
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'unsaved');

  answer();
  // Told at once, without a save attempt: the user's text stays on screen and
  // in the history, the agent's text is the stored note.
  const banner = page.getByTestId('conflict-banner');
  await expect(banner.getByTestId('conflict-kept')).toHaveText(
    "Your text is also kept in this note's history.",
  );
  await expect(body).toHaveValue(mine);
  expect(await storedBody(page, noteId)).toBe(AGENT_BODY);

  await banner.getByRole('button', { name: 'Show in history' }).click();
  const dialog = page.getByTestId('history-dialog');
  await expect(dialog.getByTestId('history-version').first()).toHaveAttribute('data-origin', 'conflict');
  await expect(dialog.getByTestId('history-diff')).toContainText('-我自己写的：短作业优先可能饿死长作业。');
  await expect(dialog.getByTestId('history-diff')).toContainText('+按优先级分成几个队列，时间片逐级加长。');
});

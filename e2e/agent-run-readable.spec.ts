import type { Page } from '@playwright/test';
import { addScriptProvider } from './harness/agent-steps';
import { startHeldLookupRun } from './harness/held-lookup-run';
import { startHeldAnswer } from './harness/held-tool-plugin';
import { switchLanguage } from './harness/language-steps';
import { textStream, toolCallStream, toolMessages } from './harness/openai-script-server';
import { createNote, expect, openApp, test } from './fixtures';

const LECTURE = '操作系统第三讲';
const SUMMARY = '操作系统第三讲 总结';
const SUMMARY_BODY = '# 总结\n\n进程调度：FCFS、SJF、RR。\n';
const ANSWER = '已给第三讲加上标签，并写好了总结笔记。';

/** A model that lists the notes, tags the lecture, writes its summary, then answers. */
function lectureModel() {
  return (body: Record<string, unknown>): string => {
    const results = toolMessages(body);
    if (results.length === 0) return toolCallStream('notes__list', {});
    if (results.length === 1) {
      const noteId = /note_[0-9a-f]{32}/.exec(results[0]?.content ?? '')?.[0] ?? '';
      return toolCallStream('notes__organise', { note_id: noteId, add_tags: ['操作系统'] });
    }
    if (results.length === 2) return toolCallStream('notes__create', { title: SUMMARY, body: SUMMARY_BODY });
    return textStream(ANSWER);
  };
}

/**
 * The student's run: her lecture note is tagged and a summary note written, both allowed once.
 * The setup runs at desktop width (Settings opens from the sidebar); `viewport` is the size the run is followed at.
 */
async function runLectureAgent(
  page: Page,
  serverUrl: string,
  { viewport }: { viewport?: { width: number; height: number } } = {},
): Promise<void> {
  await openApp(page);
  await switchLanguage(page, 'zh-CN');
  await createNote(page, LECTURE, '# 第三讲\n\n进程调度。\n');
  await addScriptProvider(page, serverUrl);
  await page.getByTestId('nav-agent').click();
  await page.getByTestId('agent-model').selectOption({ label: 'Script · script-model' });
  if (viewport) await page.setViewportSize(viewport);
  await page.getByTestId('agent-input').fill('给第三讲加标签，再写一篇总结笔记');
  await page.getByTestId('agent-run').click();
  for (let prompt = 0; prompt < 2; prompt++) {
    const permission = page.getByTestId('agent-permission');
    const id = await permission.getAttribute('data-request-id');
    await permission.getByTestId('permission-allow-once').click();
    await expect(page.locator(`[data-testid="agent-permission"][data-request-id="${id}"]`)).toHaveCount(0);
  }
  await expect(page.getByTestId('agent-run-item').first()).toHaveAttribute('data-status', 'completed');
}

test('在中文界面里，时间线用可读的工具名，说出笔记工具做了什么并链接到笔记，回答只出现一次', async ({
  page,
  scriptServer,
}) => {
  const server = await scriptServer({ reply: lectureModel() });
  await runLectureAgent(page, server.url);

  const timeline = page.getByTestId('agent-timeline');
  const calls = timeline.locator('[data-testid="agent-event"][data-event="ToolCall"]');
  await expect(calls.locator('strong')).toHaveText([
    '工具 列出笔记',
    '工具 移动笔记和设置标签',
    '工具 新建笔记',
  ]);
  // The id stays, small, for whoever debugs.
  await expect(calls.getByTestId('agent-tool-id')).toHaveText([
    'notes.list',
    'notes.organise',
    'notes.create',
  ]);

  await expect(calls.nth(1).getByTestId('agent-tool-outcome')).toHaveText(`${LECTURE}：加上了标签 #操作系统`);
  const created = calls.nth(2).getByTestId('agent-tool-outcome');
  await expect(created).toHaveText(`新建了笔记 ${SUMMARY}`);
  // The tool's own English line, with its raw id, is folded away but still there.
  const raw = calls.nth(2).getByTestId('agent-tool-result');
  await expect(raw).toBeHidden();
  await calls.nth(2).getByText('模型读到的原始结果').click();
  await expect(raw).toContainText(`Created the note “${SUMMARY}” (note_id note_`);

  // Said once: under 回答, not again as the last step's text.
  await expect(timeline.locator('[data-event="RunCompleted"]')).toContainText(ANSWER);
  expect((await timeline.textContent())?.split(ANSWER).length).toBe(2);

  // The finished run lists the notes it changed, each opening the note.
  const changes = page.getByTestId('agent-run-changes');
  await expect(changes.getByRole('heading')).toHaveText('改动的笔记');
  await expect(changes.getByTestId('agent-run-change')).toHaveText([
    `${LECTURE} 设置标签`,
    `${SUMMARY} 新建`,
  ]);

  await created.getByRole('link', { name: SUMMARY }).click();
  await expect(page.getByTestId('note-title')).toHaveValue(SUMMARY);
  await expect(page.getByTestId('note-body')).toHaveValue(SUMMARY_BODY);

  await page.getByTestId('nav-agent').click();
  await page.getByTestId('agent-run-changes').getByRole('link', { name: LECTURE, exact: true }).click();
  await expect(page.getByTestId('note-title')).toHaveValue(LECTURE);
});

test('on a phone, the finished run’s notes are listed within the screen and open the note', async ({
  page,
  scriptServer,
}) => {
  const server = await scriptServer({ reply: lectureModel() });
  await runLectureAgent(page, server.url, { viewport: { width: 390, height: 844 } });

  const link = page.getByTestId('agent-run-changes').getByRole('link', { name: SUMMARY });
  await link.scrollIntoViewIfNeeded();
  await expect(link).toBeInViewport();
  const box = await page.getByTestId('agent-run-changes').boundingBox();
  expect(box && box.x + box.width).toBeLessThanOrEqual(390);
  await link.click();
  await expect(page.getByTestId('note-title')).toHaveValue(SUMMARY);
});

test('a run stopped while a plugin tool ran says the tool may have made changes', async ({
  page,
  context,
  scriptServer,
}) => {
  const held = await startHeldAnswer(context);
  try {
    const server = await scriptServer({
      reply: () => toolCallStream('held-lookup__lookup', { url: held.url }),
    });
    await openApp(page);
    await startHeldLookupRun(page, server.url);
    await page.getByTestId('agent-permission').getByTestId('permission-allow-once').click();
    await held.arrived;

    const call = page.getByTestId('agent-timeline').locator('[data-event="ToolCall"]');
    await expect(call.locator('[data-status]')).toHaveAttribute('data-status', 'running');
    await page.getByTestId('agent-cancel').click();
    await expect(page.getByTestId('agent-run-item').first()).toHaveAttribute('data-status', 'cancelled');
    await expect(call.locator('[data-status]')).toHaveText(/^stopped while running · \d+ ms$/);
    await expect(call.getByTestId('agent-tool-cancelled')).toHaveText(
      'The run was stopped while “Look up” from the plugin “Held Lookup” was running; it may already have made changes.',
    );
  } finally {
    await held.close();
  }
});
